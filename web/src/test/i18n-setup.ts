import { startI18n } from '@/i18n/i18n';

// Components render in English, the default, as a first visit from an English browser does.
await startI18n('en');
