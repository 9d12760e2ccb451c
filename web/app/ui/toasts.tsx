import { Slide, ToastContainer, toast } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import './toasts.css';
import { useTheme } from './theme';

/** Toast settings: top-right, 5 s, at most 20 at once, dragged 60% of their width to dismiss. */
export const TOAST_SETTINGS = { position: 'top-right', autoClose: 5000, limit: 20, draggablePercent: 60 } as const;

/** The one toast host of the app. */
export function Toasts() {
  const theme = useTheme((s) => s.theme);
  return <ToastContainer {...TOAST_SETTINGS} transition={Slide} theme={theme} newestOnTop />;
}

export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
  info: (message: string) => toast.info(message),
};
