/** The widgets module: stream widgets for OBS (alert box, chat box, event list, goal bar), their editor API and public pages. */
export { widgetRoutes, type WidgetRouteDeps } from './routes';
export { createWidgetServices, type WidgetServices } from './widget-services';
