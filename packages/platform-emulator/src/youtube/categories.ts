/** YouTube's US video categories (videoCategories.list?regionCode=US), ids as the real API uses them. */
export interface YoutubeCategory {
  id: string;
  title: string;
  assignable: boolean;
}

export const youtubeCategories: readonly YoutubeCategory[] = [
  { id: '1', title: 'Film & Animation', assignable: true },
  { id: '2', title: 'Autos & Vehicles', assignable: true },
  { id: '10', title: 'Music', assignable: true },
  { id: '15', title: 'Pets & Animals', assignable: true },
  { id: '17', title: 'Sports', assignable: true },
  { id: '18', title: 'Short Movies', assignable: false },
  { id: '19', title: 'Travel & Events', assignable: true },
  { id: '20', title: 'Gaming', assignable: true },
  { id: '21', title: 'Videoblogging', assignable: false },
  { id: '22', title: 'People & Blogs', assignable: true },
  { id: '23', title: 'Comedy', assignable: true },
  { id: '24', title: 'Entertainment', assignable: true },
  { id: '25', title: 'News & Politics', assignable: true },
  { id: '26', title: 'Howto & Style', assignable: true },
  { id: '27', title: 'Education', assignable: true },
  { id: '28', title: 'Science & Technology', assignable: true },
  { id: '29', title: 'Nonprofits & Activism', assignable: true },
];

/** The channel that owns YouTube's built-in categories. */
export const youtubeCategoryOwner = 'UCBR8-60-B28hp2BmDPdntcQ';
