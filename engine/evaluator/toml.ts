export { metricSuiteToToml, parseMetricSuiteToml } from './metric-suite-toml'
export { configDir, MAX_CONFIG_FILE_BYTES, readEvaluatorConfigFile } from './config-file'
