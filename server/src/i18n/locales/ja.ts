import type { Catalogue } from '../catalogue.js';

export default {
  mail: {
    linkLine: '{{action}}：{{link}}',
    reset: {
      subject: 'パスワードの再設定',
      intro: 'アカウント {{username}} のパスワード再設定のリクエストを受け付けました。',
      action: '新しいパスワードを設定する',
      outro_other: 'このリンクは1回限り、{{count}}分間有効です。お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。',
    },
    verify: {
      subject: 'メールアドレスの確認',
      introCurrent: 'このメールアドレスがアカウント {{username}} のものであることを確認してください。',
      introNewAddress: 'アカウント {{username}} で、今後このメールアドレスを使うよう変更がリクエストされました。確認が完了すると変更されます。',
      action: 'このメールアドレスを確認する',
      outro_other: 'このリンクは1回限り、{{count}}時間有効です。お心当たりがない場合は、このメールを破棄してください。',
    },
  },
  feeds: {
    siteTitle: '{{site}}：新着動画',
    channelTitle: '{{name}} (@{{username}}) - {{site}}',
    channelDescription: '{{site}} で公開されている {{name}} の新着動画',
  },
  pages: {
    videoDescription: '{{name}} が {{site}} で公開した動画',
    channelDescription: '{{site}} で公開されている {{name}} の動画',
  },
} satisfies Catalogue;
