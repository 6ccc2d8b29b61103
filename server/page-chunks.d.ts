/** The chunks of the pages whose HTML preloads them, from the client's build (scripts/page-chunks.ts). */
declare module '#judgeflow/page-chunks' {
  const pages: import('~~/scripts/page-chunks').PageChunks[]
  export default pages
}
