export declare const SYSTEM_CHROMIUM: string
export declare const NO_BROWSER: string
export interface ResolveBrowserOptions {
  systemPath?: string
  playwrightPath?: string | undefined
  run?: (command: string, args: string[]) => boolean
  isRoot?: boolean
  exists?: (path: string) => boolean
}
export declare function resolveBrowser(options?: ResolveBrowserOptions): Promise<{ executablePath: string, system: boolean }>
