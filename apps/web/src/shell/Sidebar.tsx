import type { ComponentType } from 'react';
import { Badge, Box, chakra, Separator, Stack, Text, VisuallyHidden, type IconProps } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { config } from '../config';
import { ExploreIcon, ExternalLinkIcon, GovernanceIcon, GuideIcon, IndexDataIcon, JobsIcon, RequestsIcon } from '../components/icons';
import { sharingApi } from '../sharing/sharing-api';
import { sharingKeys } from '../shared/query-keys';
import { useRecordsScope } from './records-scope';

/** The Requests count is read again this often (and when the window regains focus); deciding or reading updates it at once. */
export const ATTENTION_POLL_MS = 60_000;

interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<IconProps>;
}

const indexData: NavItem = { label: 'Index Data', to: '/indexdata', icon: IndexDataIcon };
const explore: NavItem = { label: 'Explore', to: '/records', icon: ExploreIcon };
const requests: NavItem = { label: 'Requests', to: '/request', icon: RequestsIcon };
const governance: NavItem = { label: 'Governance', to: '/access-policies', icon: GovernanceIcon };
const jobs: NavItem = { label: 'Backend Jobs', to: '/jobs', icon: JobsIcon };

const itemStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  _hover: { bg: 'bg.emphasized', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'teal.focusRing', outlineOffset: '-2px' },
} as const;

const SideLink = chakra(NavLink, {
  base: { ...itemStyles, '&[aria-current=page]': { bg: 'teal.subtle', color: 'teal.fg', fontWeight: 'semibold' } },
});

/** ", 2 need your attention": what the entry's name gains with its count ("Requests, 2 need your attention"). */
export const attentionSuffix = (count: number) => `, ${count} ${count === 1 ? 'needs' : 'need'} your attention`;

function Item({ item, count = 0 }: { item: NavItem; count?: number }) {
  const Icon = item.icon;
  return (
    <li>
      <SideLink to={item.to}>
        <Icon boxSize="5" />
        {count > 0 ? (
          <>
            {/* One name for assistive technology ("Requests, 2 need your attention"); the label and badge are what the eye reads. */}
            <VisuallyHidden>{`${item.label}${attentionSuffix(count)}`}</VisuallyHidden>
            <span aria-hidden="true">{item.label}</span>
            <Badge ms="auto" colorPalette="red" variant="solid" borderRadius="full" aria-hidden="true" data-testid="requests-attention">
              {count > 99 ? '99+' : count}
            </Badge>
          </>
        ) : (
          item.label
        )}
      </SideLink>
    </li>
  );
}

/** How many requests and messages wait for the signed-in caller (received requests to decide, unread messages). */
export function useAttentionCount(): number {
  const { token, isSignedIn } = useAuth();
  const attention = useQuery({
    queryKey: sharingKeys.attention(token),
    queryFn: ({ signal }) => sharingApi.attention(signal),
    enabled: isSignedIn,
    refetchInterval: ATTENTION_POLL_MS,
  });
  return isSignedIn ? (attention.data?.count ?? 0) : 0;
}

/**
 * The side menu (spec section 2, "Shell"): Index Data always; the section entries when the
 * visibility toggle is at "all" or the user is signed in; Governance not for BASIC clients.
 */
export function Sidebar() {
  const { isSignedIn, clientType } = useAuth();
  const { scope } = useRecordsScope();
  const attention = useAttentionCount();
  const showSections = scope === 'all' || isSignedIn;
  const sections = [explore, requests, ...(clientType === 'BASIC' ? [] : [governance]), jobs];

  return (
    <Stack gap="4" p="3" h="full">
      <Stack as="ul" gap="1" listStyleType="none">
        <Item item={indexData} />
      </Stack>
      {showSections && (
        <>
          <Separator />
          <Box>
            <Text px="3" pb="2" fontSize="xs" fontWeight="semibold" color="fg.subtle" textTransform="uppercase" letterSpacing="wider">
              Sections
            </Text>
            <Stack as="ul" gap="1" listStyleType="none">
              {sections.map((item) => (
                <Item key={item.to} item={item} count={item === requests ? attention : 0} />
              ))}
              <li>
                <chakra.a href={config.startGuideUrl} target="_blank" rel="noopener noreferrer" {...itemStyles}>
                  <GuideIcon boxSize="5" />
                  Start Guide
                  <ExternalLinkIcon boxSize="3.5" ms="auto" />
                  <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
                </chakra.a>
              </li>
            </Stack>
          </Box>
        </>
      )}
    </Stack>
  );
}
