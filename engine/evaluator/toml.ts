export { metricSuiteToToml, parseMetricSuiteToml } from './metric-suite-toml'
export { DEFAULT_CONFIG_DIR, MAX_CONFIG_FILE_BYTES, readEvaluatorConfigFile } from './config-file'
