import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startI18n } from './i18n/i18n';
import './index.css';

// The first paint is already in the visitor's language: its catalogues arrive before anything renders.
void startI18n().finally(() => createRoot(document.getElementById('root')!).render(<App />));
