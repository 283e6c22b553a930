/** A small fixed Kick category catalogue (ids are stable across runs). */
export interface KickCategory {
  id: number;
  name: string;
  thumbnail: string;
  tags: string[];
}

const names: [number, string, string[]][] = [
  [15, 'Just Chatting', ['IRL']],
  [28, 'Slots & Casino', ['Gambling']],
  [8549, 'IRL', ['IRL']],
  [13, 'Grand Theft Auto V', ['Action', 'Open World']],
  [10, 'Counter-Strike 2', ['FPS', 'Shooter']],
  [6, 'Fortnite', ['Battle Royale', 'Shooter']],
  [3, 'League of Legends', ['MOBA']],
  [5, 'Minecraft', ['Sandbox']],
  [17, 'Valorant', ['FPS', 'Shooter']],
  [11, 'Call of Duty: Warzone', ['Battle Royale', 'FPS']],
  [4, 'Apex Legends', ['Battle Royale', 'FPS']],
  [41, 'Music', ['Creative']],
  [52, 'Art', ['Creative']],
  [64, 'Pools, Hot Tubs & Bikinis', ['IRL']],
  [2, 'Rust', ['Survival']],
  [19, 'Elden Ring', ['RPG']],
];

/** Thumbnails point at Kick's real file host shape; nothing here fetches them. */
export const kickCategories: readonly KickCategory[] = names.map(([id, name, tags]) => ({
  id,
  name,
  tags,
  thumbnail: `https://files.kick.com/images/subcategories/${id}/banner/conversion/thumb.webp`,
}));
