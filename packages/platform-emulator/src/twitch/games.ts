/** Twitch categories (games) the emulator knows, with their real Helix ids. */
export interface TwitchGame {
  id: string;
  name: string;
  igdbId: string;
}

export const twitchGames: readonly TwitchGame[] = [
  { id: '509658', name: 'Just Chatting', igdbId: '' },
  { id: '33214', name: 'Fortnite', igdbId: '1905' },
  { id: '21779', name: 'League of Legends', igdbId: '115' },
  { id: '27471', name: 'Minecraft', igdbId: '121' },
  { id: '516575', name: 'VALORANT', igdbId: '126459' },
  { id: '32982', name: 'Grand Theft Auto V', igdbId: '1020' },
  { id: '32399', name: 'Counter-Strike', igdbId: '242408' },
  { id: '1469308723', name: 'Software and Game Development', igdbId: '' },
  { id: '26936', name: 'Music', igdbId: '' },
  { id: '509660', name: 'Art', igdbId: '' },
  { id: '512953', name: 'Elden Ring', igdbId: '119133' },
  { id: '511224', name: 'Apex Legends', igdbId: '114795' },
  { id: '18122', name: 'World of Warcraft', igdbId: '123' },
  { id: '29595', name: 'Dota 2', igdbId: '2963' },
  { id: '138585', name: 'Hearthstone', igdbId: '1279' },
  { id: '30921', name: 'Rocket League', igdbId: '11198' },
  { id: '515025', name: 'Overwatch 2', igdbId: '125174' },
  { id: '743', name: 'Chess', igdbId: '' },
  { id: '27284', name: 'Retro', igdbId: '' },
  { id: '509670', name: 'Science & Technology', igdbId: '' },
  { id: '510218', name: 'Among Us', igdbId: '111469' },
  { id: '490744', name: 'Stardew Valley', igdbId: '17000' },
  { id: '490147', name: 'Hollow Knight', igdbId: '14593' },
  { id: '1229', name: 'Super Mario 64', igdbId: '1074' },
];

export function twitchGame(id: string): TwitchGame | undefined {
  return twitchGames.find((g) => g.id === id);
}

export function boxArtUrl(game: TwitchGame): string {
  return `https://static-cdn.jtvnw.net/ttv-boxart/${game.id}-{width}x{height}.jpg`;
}
