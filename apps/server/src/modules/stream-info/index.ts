/** The stream-info module: title and category of a channel's platforms (routes + StreamInfoService for the chatbot and dashboard). */
export { streamInfoRoutes, type StreamInfoRouteDeps } from './routes';
export {
  StreamInfoService,
  pickCategory,
  toStreamInfoDto,
  type CategorySearchResult,
  type StreamInfoActor,
  type StreamInfoChange,
  type StreamInfoChangeAll,
  type StreamInfoResult,
  type StreamInfoServiceDeps,
  type StreamInfoTarget,
} from './stream-info-service';
