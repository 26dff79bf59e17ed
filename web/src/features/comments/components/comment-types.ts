export interface CommentViewer {
  _id: string;
  username: string;
  avatar: { url: string };
}

export type Notify = (message: string, kind: 'error' | 'success' | 'info') => void;
