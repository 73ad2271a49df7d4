// markdown-it-task-lists ships no types, and @types/markdown-it-footnote's are written against
// markdown-it's CommonJS types (they do not fit its ES module ones): the one export each that
// services/markdown/markdown.ts uses.
declare module 'markdown-it-task-lists' {
  const taskLists: (md: unknown, options?: { enabled?: boolean; label?: boolean; labelAfter?: boolean }) => void;
  export default taskLists;
}

declare module 'markdown-it-footnote' {
  const footnote: (md: unknown) => void;
  export default footnote;
}
