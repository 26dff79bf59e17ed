import type { Catalogue } from '../catalogue.js';

/** English: the words every other catalogue translates, key for key (i18n.catalogues.test.ts checks). */
export default {
  mail: {
    /** How a mail's one link is given in its plain-text part. */
    linkLine: '{{action}}: {{link}}',
    reset: {
      subject: 'Reset your password',
      intro: 'Someone, hopefully you, asked to reset the password of the account {{username}}.',
      action: 'Choose a new password',
      outro_one: 'The link works once, for {{count}} minute. If you did not ask, ignore this mail: your password stays as it is.',
      outro_other: 'The link works once, for {{count}} minutes. If you did not ask, ignore this mail: your password stays as it is.',
    },
    verify: {
      subject: 'Confirm your email address',
      introCurrent: 'Confirm that this address belongs to the account {{username}}.',
      introNewAddress: 'The account {{username}} asked to use this address from now on. It changes once you confirm it.',
      action: 'Confirm this address',
      outro_one: 'The link works once, for {{count}} hour. If you did not ask for this, ignore this mail.',
      outro_other: 'The link works once, for {{count}} hours. If you did not ask for this, ignore this mail.',
    },
  },
  feeds: {
    siteTitle: '{{site}}: newest videos',
    channelTitle: '{{name}} (@{{username}}) on {{site}}',
    channelDescription: 'The newest videos of {{name}} on {{site}}',
  },
  pages: {
    videoDescription: 'A video by {{name}} on {{site}}',
    channelDescription: 'Videos of {{name}} on {{site}}',
  },
} satisfies Catalogue;
