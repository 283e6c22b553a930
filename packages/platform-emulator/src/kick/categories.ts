/** A small fixed Kick category catalogue (ids are stable across runs). */
export interface KickCategory {
  id: number;
  name: string;
  thumbnail: string;
}

const names: [number, string][] = [
  [15, 'Just Chatting'],
  [28, 'Slots & Casino'],
  [8549, 'IRL'],
  [13, 'Grand Theft Auto V'],
  [10, 'Counter-Strike 2'],
  [6, 'Fortnite'],
  [3, 'League of Legends'],
  [5, 'Minecraft'],
  [17, 'Valorant'],
  [11, 'Call of Duty: Warzone'],
  [4, 'Apex Legends'],
  [41, 'Music'],
  [52, 'Art'],
  [64, 'Pools, Hot Tubs & Bikinis'],
  [2, 'Rust'],
  [19, 'Elden Ring'],
];

/** Thumbnails point at Kick's real file host shape; nothing here fetches them. */
export const kickCategories: readonly KickCategory[] = names.map(([id, name]) => ({
  id,
  name,
  thumbnail: `https://files.kick.com/images/subcategories/${id}/banner/conversion/thumb.webp`,
}));
