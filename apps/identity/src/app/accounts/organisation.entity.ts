import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'organisations' })
export class OrganisationEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text', { default: '' }) email: string;
  @Column('text', { default: '' }) description: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'changed_at', type: 'timestamptz' }) changedAt: Date;
}
