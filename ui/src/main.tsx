import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './components/components.css';
import './app/app.css';
import { createAppRouter } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('quire: index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
  </StrictMode>,
);
