export * from './client'
export * from './store'
export * from './queue'
