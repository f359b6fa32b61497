import type { ReactNode } from 'react';
import { Card, Heading, HStack, Text } from '@chakra-ui/react';

/** A titled card grouping one part of a screen. */
export function Section({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Card.Root as="section" variant="outline" bg="bg.panel" aria-label={title}>
      <Card.Header>
        <HStack justify="space-between" align="start" gap="4" wrap="wrap">
          <div>
            <Heading as="h2" size="md">
              {title}
            </Heading>
            {description && (
              <Text fontSize="sm" color="fg.muted" mt="1">
                {description}
              </Text>
            )}
          </div>
          {actions}
        </HStack>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}
