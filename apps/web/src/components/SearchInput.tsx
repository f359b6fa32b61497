import { Input, InputGroup } from '@chakra-ui/react';
import { SearchIcon } from './icons';

interface SearchInputProps {
  /** Its placeholder and accessible name. */
  label: string;
  value: string;
  onChange(value: string): void;
  size: 'sm' | 'lg';
  bg: string;
  flex?: string;
}

/** The rounded search box with a magnifier (Home's and the top bar's); its form submits the query. */
export function SearchInput({ label, value, onChange, size, bg, flex }: SearchInputProps) {
  return (
    <InputGroup flex={flex} startElement={<SearchIcon boxSize={size === 'lg' ? '5' : '4'} color="fg.muted" />}>
      <Input
        size={size}
        type="search"
        name="query"
        placeholder={label}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        bg={bg}
        borderRadius="full"
      />
    </InputGroup>
  );
}
