/** A few real TikTok gifts (ids, names and diamond values as TikTok lists them). Type 1 = streakable. */
export interface TikTokGiftDef {
  id: string;
  name: string;
  diamondCount: number;
  type: number;
}

export const tiktokGifts: readonly TikTokGiftDef[] = [
  { id: '5655', name: 'Rose', diamondCount: 1, type: 1 },
  { id: '5269', name: 'TikTok', diamondCount: 1, type: 1 },
  { id: '5487', name: 'Finger Heart', diamondCount: 5, type: 1 },
  { id: '5658', name: 'Perfume', diamondCount: 20, type: 1 },
  { id: '5879', name: 'Doughnut', diamondCount: 30, type: 1 },
  { id: '6064', name: 'GG', diamondCount: 1, type: 1 },
  { id: '11046', name: 'Galaxy', diamondCount: 1000, type: 2 },
  { id: '6369', name: 'Lion', diamondCount: 29999, type: 2 },
];

export function findTikTokGift(idOrName: unknown): TikTokGiftDef {
  const key = typeof idOrName === 'string' || typeof idOrName === 'number' ? String(idOrName).toLowerCase() : '';
  return tiktokGifts.find((g) => g.id === key || g.name.toLowerCase() === key) ?? tiktokGifts[0]!;
}
