import { Alert, Button, Heading, Stack, Tabs } from '@chakra-ui/react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../auth/AuthProvider';
import { LoadingState } from '../components/LoadingState';
import { AccountsTab } from './profile/AccountsTab';
import { CredentialsTab } from './profile/CredentialsTab';
import { OrganisationTab } from './profile/OrganisationTab';
import { ProfileTab } from './profile/ProfileTab';
import { accountKeys } from '../shared/query-keys';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'organisation', label: 'Organisation' },
  { value: 'accounts', label: 'Accounts' },
  { value: 'credentials', label: 'Credentials' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

function isTab(value: string | null): value is TabValue {
  return TABS.some((tab) => tab.value === value);
}

/** Profile (spec section 2): tabs Profile, Organisation, Accounts, Credentials; the tab is kept in `?tab=`. */
export function ProfilePage() {
  const { user, isLoadingUser, isSignedIn } = useAuth();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = isTab(requested) ? requested : 'profile';

  return (
    <Stack gap="6" maxW="6xl">
      <Heading as="h1" size="2xl">
        Profile
      </Heading>
      {!isSignedIn && (
        // Not a redirect: logging out from here must be free to go Home (spec: "Logout goes to Home").
        <Alert.Root status="info" role="status">
          <Alert.Indicator />
          <Alert.Title>Please log in to see your profile.</Alert.Title>
          <Button asChild size="sm" colorPalette="teal">
            <RouterLink to="/login">Login</RouterLink>
          </Button>
        </Alert.Root>
      )}
      {isLoadingUser && <LoadingState label="Loading your account…" />}
      {isSignedIn && !isLoadingUser && !user && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Your account could not be loaded.</Alert.Title>
            <Alert.Description>An error occured, please try again.</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => queryClient.invalidateQueries({ queryKey: accountKeys.all })}>
            Try again
          </Button>
        </Alert.Root>
      )}
      {user && (
        <Tabs.Root
          value={tab}
          onValueChange={(details) => setParams(details.value === 'profile' ? {} : { tab: details.value }, { replace: true })}
          lazyMount
          unmountOnExit
          colorPalette="teal"
          variant="line"
        >
          <Tabs.List overflowX="auto">
            {TABS.map((item) => (
              <Tabs.Trigger key={item.value} value={item.value}>
                {item.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="profile" pt="6">
            <ProfileTab user={user} />
          </Tabs.Content>
          <Tabs.Content value="organisation" pt="6">
            <OrganisationTab user={user} />
          </Tabs.Content>
          <Tabs.Content value="accounts" pt="6">
            <AccountsTab user={user} />
          </Tabs.Content>
          <Tabs.Content value="credentials" pt="6">
            <CredentialsTab />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Stack>
  );
}
