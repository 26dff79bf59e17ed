import type { Catalogue } from '../catalogue.js';

export default {
  mail: {
    linkLine: '{{action}}: {{link}}',
    reset: {
      subject: 'Redefina sua senha',
      intro: 'Alguém, provavelmente você, pediu para redefinir a senha da conta {{username}}.',
      action: 'Escolher uma nova senha',
      outro_one: 'O link só pode ser usado uma vez e vale por {{count}} minuto. Se você não fez esse pedido, ignore este e-mail: sua senha continua a mesma.',
      outro_many: 'O link só pode ser usado uma vez e vale por {{count}} minutos. Se você não fez esse pedido, ignore este e-mail: sua senha continua a mesma.',
      outro_other:
        'O link só pode ser usado uma vez e vale por {{count}} minutos. Se você não fez esse pedido, ignore este e-mail: sua senha continua a mesma.',
    },
    verify: {
      subject: 'Confirme seu endereço de e-mail',
      introCurrent: 'Confirme que este endereço pertence à conta {{username}}.',
      introNewAddress: 'A conta {{username}} pediu para usar este endereço a partir de agora. A mudança vale assim que você confirmar.',
      action: 'Confirmar este endereço',
      outro_one: 'O link só pode ser usado uma vez e vale por {{count}} hora. Se você não fez esse pedido, ignore este e-mail.',
      outro_many: 'O link só pode ser usado uma vez e vale por {{count}} horas. Se você não fez esse pedido, ignore este e-mail.',
      outro_other: 'O link só pode ser usado uma vez e vale por {{count}} horas. Se você não fez esse pedido, ignore este e-mail.',
    },
  },
  feeds: {
    siteTitle: '{{site}}: vídeos mais recentes',
    channelTitle: '{{name}} (@{{username}}) no {{site}}',
    channelDescription: 'Os vídeos mais recentes de {{name}} no {{site}}',
  },
  pages: {
    videoDescription: 'Um vídeo de {{name}} no {{site}}',
    channelDescription: 'Vídeos de {{name}} no {{site}}',
  },
} satisfies Catalogue;
