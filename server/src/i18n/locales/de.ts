import type { Catalogue } from '../catalogue.js';

export default {
  mail: {
    linkLine: '{{action}}: {{link}}',
    reset: {
      subject: 'Setze dein Passwort zurück',
      intro: 'Jemand – hoffentlich du – möchte das Passwort des Kontos {{username}} zurücksetzen.',
      action: 'Neues Passwort festlegen',
      outro_one:
        'Der Link funktioniert nur einmal und ist {{count}} Minute lang gültig. Wenn du das nicht angefordert hast, ignoriere diese E-Mail: Dein Passwort bleibt unverändert.',
      outro_other:
        'Der Link funktioniert nur einmal und ist {{count}} Minuten lang gültig. Wenn du das nicht angefordert hast, ignoriere diese E-Mail: Dein Passwort bleibt unverändert.',
    },
    verify: {
      subject: 'Bestätige deine E-Mail-Adresse',
      introCurrent: 'Bestätige, dass diese Adresse zum Konto {{username}} gehört.',
      introNewAddress: 'Das Konto {{username}} möchte ab jetzt diese Adresse verwenden. Die Änderung wird wirksam, sobald du sie bestätigst.',
      action: 'Diese Adresse bestätigen',
      outro_one: 'Der Link funktioniert nur einmal und ist {{count}} Stunde lang gültig. Wenn du das nicht angefordert hast, ignoriere diese E-Mail.',
      outro_other: 'Der Link funktioniert nur einmal und ist {{count}} Stunden lang gültig. Wenn du das nicht angefordert hast, ignoriere diese E-Mail.',
    },
  },
  feeds: {
    siteTitle: '{{site}}: neueste Videos',
    channelTitle: '{{name}} (@{{username}}) auf {{site}}',
    channelDescription: 'Die neuesten Videos von {{name}} auf {{site}}',
  },
  pages: {
    videoDescription: 'Ein Video von {{name}} auf {{site}}',
    channelDescription: 'Videos von {{name}} auf {{site}}',
  },
} satisfies Catalogue;
