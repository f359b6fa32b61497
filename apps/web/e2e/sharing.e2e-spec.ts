import { describeInfra, isChromiumInstalled } from '@dc/testing';
import { startRealProduct } from './real-product';
import { sharingStory } from './sharing-story';

/** The data-sharing story (sharing-story.ts) in embedded mode: one process, in-process events, files on disk. */
describeInfra(
  'data sharing end to end in embedded mode (two organisations, a browser)',
  isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)',
  () => {
    jest.setTimeout(300_000);
    sharingStory('sharing', () => startRealProduct('sharing'));
  },
);
