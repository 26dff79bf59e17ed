export { default } from './video-page/video-page';
