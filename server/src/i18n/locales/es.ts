import type { Catalogue } from '../catalogue.js';

export default {
  mail: {
    linkLine: '{{action}}: {{link}}',
    reset: {
      subject: 'Restablece tu contraseña',
      intro: 'Alguien, seguramente tú, ha pedido restablecer la contraseña de la cuenta {{username}}.',
      action: 'Elegir una contraseña nueva',
      outro_one: 'El enlace funciona una sola vez, durante {{count}} minuto. Si no lo pediste, ignora este correo: tu contraseña no cambiará.',
      outro_many: 'El enlace funciona una sola vez, durante {{count}} minutos. Si no lo pediste, ignora este correo: tu contraseña no cambiará.',
      outro_other: 'El enlace funciona una sola vez, durante {{count}} minutos. Si no lo pediste, ignora este correo: tu contraseña no cambiará.',
    },
    verify: {
      subject: 'Confirma tu dirección de correo electrónico',
      introCurrent: 'Confirma que esta dirección pertenece a la cuenta {{username}}.',
      introNewAddress: 'La cuenta {{username}} ha pedido usar esta dirección a partir de ahora. El cambio se hará efectivo en cuanto la confirmes.',
      action: 'Confirmar esta dirección',
      outro_one: 'El enlace funciona una sola vez, durante {{count}} hora. Si no lo pediste, ignora este correo.',
      outro_many: 'El enlace funciona una sola vez, durante {{count}} horas. Si no lo pediste, ignora este correo.',
      outro_other: 'El enlace funciona una sola vez, durante {{count}} horas. Si no lo pediste, ignora este correo.',
    },
  },
  feeds: {
    siteTitle: '{{site}}: videos más recientes',
    channelTitle: '{{name}} (@{{username}}) en {{site}}',
    channelDescription: 'Los videos más recientes de {{name}} en {{site}}',
  },
  pages: {
    videoDescription: 'Un video de {{name}} en {{site}}',
    channelDescription: 'Videos de {{name}} en {{site}}',
  },
} satisfies Catalogue;
