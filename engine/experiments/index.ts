export * from './schema'
export * from './stats'
export * from './recommend'
export * from './markdown'
