import type { Catalogue } from '../catalogue.js';

export default {
  mail: {
    linkLine: '{{action}} : {{link}}',
    reset: {
      subject: 'Réinitialisez votre mot de passe',
      intro: 'Quelqu’un, vous sans doute, a demandé à réinitialiser le mot de passe du compte {{username}}.',
      action: 'Choisir un nouveau mot de passe',
      outro_one:
        'Le lien ne fonctionne qu’une fois, pendant {{count}} minute. Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.',
      outro_many:
        'Le lien ne fonctionne qu’une fois, pendant {{count}} minutes. Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.',
      outro_other:
        'Le lien ne fonctionne qu’une fois, pendant {{count}} minutes. Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.',
    },
    verify: {
      subject: 'Confirmez votre adresse e-mail',
      introCurrent: 'Confirmez que cette adresse appartient bien au compte {{username}}.',
      introNewAddress: 'Le compte {{username}} a demandé à utiliser désormais cette adresse. Le changement prendra effet dès que vous l’aurez confirmée.',
      action: 'Confirmer cette adresse',
      outro_one: 'Le lien ne fonctionne qu’une fois, pendant {{count}} heure. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
      outro_many: 'Le lien ne fonctionne qu’une fois, pendant {{count}} heures. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
      outro_other: 'Le lien ne fonctionne qu’une fois, pendant {{count}} heures. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
    },
  },
  feeds: {
    siteTitle: '{{site}} : les dernières vidéos',
    channelTitle: '{{name}} (@{{username}}) sur {{site}}',
    channelDescription: 'Les dernières vidéos de {{name}} sur {{site}}',
  },
  pages: {
    videoDescription: 'Une vidéo de {{name}} sur {{site}}',
    channelDescription: 'Les vidéos de {{name}} sur {{site}}',
  },
} satisfies Catalogue;
