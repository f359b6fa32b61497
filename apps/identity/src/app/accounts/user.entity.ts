import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ClientType } from '@dc/platform';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') username: string;
  @Column('text') email: string;
  @Column('text', { name: 'first_name' }) firstName: string;
  @Column('text', { name: 'last_name' }) lastName: string;
  @Column('text', { default: '' }) description: string;
  /** argon2id hash; never the password. */
  @Column('text', { name: 'password_hash' }) passwordHash: string;
  @Column('int', { name: 'password_version', default: 1 }) passwordVersion: number;
  @Column('uuid', { name: 'organisation_id' }) organisationId: string;
  @Column('text', { name: 'client_type' }) clientType: ClientType;
  @Column('boolean', { default: false }) active: boolean;
  /** When the owner proved their email or an admin created the account; null until then. */
  @Column('timestamptz', { name: 'activated_at', nullable: true }) activatedAt: Date | null;
  @Column('int', { array: true, default: () => "'{}'" }) groups: number[];
  @CreateDateColumn({ name: 'date_joined', type: 'timestamptz' }) dateJoined: Date;
}
