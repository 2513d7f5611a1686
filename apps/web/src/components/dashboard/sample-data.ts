// Static sample data of the dashboard (spec 1 and 2: prompts are shown only as sample data).
// The prompt library replaces this file's consumers with real queries.

type PromptVisibility = "team" | "organization" | "private";

/** A prompt card's data (spec 3, 'Prompt card'). */
export interface PromptCardData {
  id: string;
  title: string;
  description: string;
  tags: string[];
  model: string;
  visibility: PromptVisibility;
  version: string;
  rating: number;
  commentsCount: number;
  bookmarked: boolean;
  author: { name: string; initials: string; avatar: string | null };
}

export interface DashboardStat {
  label: "Total Prompts" | "Team Members" | "Bookmarked Prompts" | "Average Rating";
  value: string;
  note: string;
}

export const SAMPLE_STATS: readonly DashboardStat[] = [
  { label: "Total Prompts", value: "128", note: "+12 this month" },
  { label: "Team Members", value: "14", note: "+2 this month" },
  { label: "Bookmarked Prompts", value: "23", note: "+5 this month" },
  { label: "Average Rating", value: "4.6", note: "From 310 ratings" },
];

export const SAMPLE_PROMPTS: readonly PromptCardData[] = [
  {
    id: "sample-1",
    title: "Customer Support Reply",
    description: "Drafts a friendly, concise answer to a customer ticket, keeping the product's tone of voice.",
    tags: ["support", "email", "tone"],
    model: "GPT-4o",
    visibility: "team",
    version: "v3",
    rating: 4.8,
    commentsCount: 12,
    bookmarked: true,
    author: { name: "Alex Morgan", initials: "AM", avatar: null },
  },
  {
    id: "sample-2",
    title: "Release Notes Writer",
    description: "Turns a list of merged changes into release notes grouped by feature, fix and breaking change.",
    tags: ["engineering", "writing"],
    model: "Claude 3.5 Sonnet",
    visibility: "organization",
    version: "v2",
    rating: 4.5,
    commentsCount: 7,
    bookmarked: false,
    author: { name: "Priya Shah", initials: "PS", avatar: null },
  },
  {
    id: "sample-3",
    title: "Meeting Summary",
    description: "Summarises a meeting transcript into decisions, open questions and action items with owners.",
    tags: ["productivity", "summary"],
    model: "GPT-4o mini",
    visibility: "private",
    version: "v1",
    rating: 4.2,
    commentsCount: 3,
    bookmarked: false,
    author: { name: "Jordan Lee", initials: "JL", avatar: null },
  },
];
