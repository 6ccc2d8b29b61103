export * from './client'
export * from './store'
