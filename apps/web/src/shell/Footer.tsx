import { Flex, HStack, Link, Text } from '@chakra-ui/react';
import { config } from '../config';

export function Footer() {
  return (
    <Flex
      as="footer"
      direction={{ base: 'column', sm: 'row' }}
      gap="2"
      justify="space-between"
      align={{ base: 'start', sm: 'center' }}
      px={{ base: '4', md: '6' }}
      py="4"
      borderTopWidth="1px"
      fontSize="sm"
      color="fg.muted"
      bg="bg.panel"
    >
      <Text>
        © {new Date().getFullYear()} {config.productName} · Beta
      </Text>
      <HStack gap="4">
        <Link href={config.startGuideUrl} target="_blank" rel="noopener noreferrer" color="fg.muted">
          Start Guide
        </Link>
        <Link href="/api/docs" target="_blank" rel="noopener noreferrer" color="fg.muted">
          API documentation
        </Link>
      </HStack>
    </Flex>
  );
}
