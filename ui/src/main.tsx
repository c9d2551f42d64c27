import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './components/components.css';
import './app/app.css';
import { App, createAppHistory } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('quire: index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App history={createAppHistory()} />
  </StrictMode>,
);
