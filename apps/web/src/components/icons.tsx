import type { ReactElement } from 'react';
import { createIcon } from '@chakra-ui/react';

// Line icons drawn on a 24 px grid in the current text colour; decorative (aria-hidden) by default.
const stroke = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
} as const;

function lineIcon(displayName: string, path: ReactElement[]) {
  return createIcon({ displayName, defaultProps: stroke, path });
}

// The shell's icons.

export const MenuIcon = lineIcon('MenuIcon', [<path key="a" d="M4 6h16" />, <path key="b" d="M4 12h16" />, <path key="c" d="M4 18h16" />]);

export const SearchIcon = lineIcon('SearchIcon', [<circle key="a" cx="11" cy="11" r="7" />, <path key="b" d="m20 20-3.5-3.5" />]);

export const CogIcon = lineIcon('CogIcon', [
  <circle key="a" cx="12" cy="12" r="3" />,
  <path
    key="b"
    d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 0 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 0 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 0 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 0 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z"
  />,
]);

export const IndexDataIcon = lineIcon('IndexDataIcon', [
  <ellipse key="a" cx="12" cy="5" rx="8" ry="3" />,
  <path key="b" d="M4 5v6c0 1.7 3.6 3 8 3 1 0 2-.1 2.9-.2" />,
  <path key="c" d="M4 11v6c0 1.7 3.6 3 8 3" />,
  <path key="d" d="M20 5v5" />,
  <path key="e" d="M18 16h6" />,
  <path key="f" d="M21 13v6" />,
]);

export const ExploreIcon = lineIcon('ExploreIcon', [<circle key="a" cx="12" cy="12" r="9" />, <path key="b" d="m15.5 8.5-2 5-5 2 2-5z" />]);

export const RequestsIcon = lineIcon('RequestsIcon', [
  <path key="a" d="M22 12h-6l-2 3h-4l-2-3H2" />,
  <path key="b" d="M5.5 5.1 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.5-6.9A2 2 0 0 0 16.8 4H7.2a2 2 0 0 0-1.7 1.1z" />,
]);

export const GovernanceIcon = lineIcon('GovernanceIcon', [
  <path key="a" d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />,
  <path key="b" d="m9 12 2 2 4-4" />,
]);

export const JobsIcon = lineIcon('JobsIcon', [
  <rect key="a" x="3" y="4" width="18" height="16" rx="2" />,
  <path key="b" d="M7 9h6" />,
  <path key="c" d="M7 13h10" />,
  <path key="d" d="M7 17h4" />,
]);

export const GuideIcon = lineIcon('GuideIcon', [
  <path key="a" d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5z" />,
  <path key="b" d="M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5" />,
]);

export const ExternalLinkIcon = lineIcon('ExternalLinkIcon', [
  <path key="a" d="M15 3h6v6" />,
  <path key="b" d="M10 14 21 3" />,
  <path key="c" d="M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" />,
]);

export const LogoMark = createIcon({
  displayName: 'LogoMark',
  viewBox: '0 0 32 32',
  defaultProps: { 'aria-hidden': true },
  path: [
    <rect key="bg" width="32" height="32" rx="7" fill="#0d9488" />,
    <g key="db" fill="none" stroke="#fff" strokeWidth="2.2">
      <ellipse cx="16" cy="9.5" rx="8" ry="3" />
      <path d="M8 9.5v6.5c0 1.7 3.6 3 8 3s8-1.3 8-3V9.5" />
      <path d="M8 16v6.5c0 1.7 3.6 3 8 3s8-1.3 8-3V16" />
    </g>,
  ],
});

// The record card's and the Workspace's icons.

export const SimilarIcon = lineIcon('SimilarIcon', [<circle key="a" cx="9" cy="9" r="5" />, <circle key="b" cx="15" cy="15" r="5" />]);

export const LinkIcon = lineIcon('LinkIcon', [
  <path key="a" d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.5 1.5" />,
  <path key="b" d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.5-1.5" />,
]);

export const DownloadIcon = lineIcon('DownloadIcon', [<path key="a" d="M12 4v11" />, <path key="b" d="m7 10 5 5 5-5" />, <path key="c" d="M5 20h14" />]);

export const CopyIcon = lineIcon('CopyIcon', [<rect key="a" x="9" y="9" width="11" height="11" rx="2" />, <path key="b" d="M5 15V6a2 2 0 0 1 2-2h9" />]);

export const EditIcon = lineIcon('EditIcon', [<path key="a" d="M4 20h4L19 9l-4-4L4 16v4Z" />, <path key="b" d="m13 7 4 4" />]);

export const DeleteIcon = lineIcon('DeleteIcon', [
  <path key="a" d="M4 7h16" />,
  <path key="b" d="M10 11v6M14 11v6" />,
  <path key="c" d="M6 7l1 13h10l1-13M9 7V4h6v3" />,
]);

export const GridIcon = lineIcon('GridIcon', [
  <rect key="a" x="4" y="4" width="7" height="7" rx="1" />,
  <rect key="b" x="13" y="4" width="7" height="7" rx="1" />,
  <rect key="c" x="4" y="13" width="7" height="7" rx="1" />,
  <rect key="d" x="13" y="13" width="7" height="7" rx="1" />,
]);

export const TableIcon = lineIcon('TableIcon', [<rect key="a" x="3" y="5" width="18" height="14" rx="1" />, <path key="b" d="M3 10h18M3 15h18M9 5v14" />]);
