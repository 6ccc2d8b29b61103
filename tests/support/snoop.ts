/**
 * The body of a python assertion that looks for what user code must never see: every process's
 * environment it can read, then (if given) the folders listed and a connection to a loopback
 * port. It returns a passing grade whose reason holds all it found, joined by " | ".
 */
export function snoopingPython(options: { folders?: string[], port?: number } = {}): string {
  const lines = [
    'import os, socket',
    'seen = []',
    'for pid in os.listdir("/proc"):',
    '    if pid.isdigit():',
    '        try:',
    '            seen.append(open("/proc/%s/environ" % pid, "rb").read().decode("latin-1").replace("\\0", " "))',
    '        except OSError as error:',
    '            seen.append(type(error).__name__)',
  ]
  for (const folder of options.folders ?? []) {
    lines.push('try:', `    seen.append(" ".join(os.listdir(${JSON.stringify(folder)})))`, 'except OSError as error:', '    seen.append(type(error).__name__)')
  }
  if (options.port !== undefined) {
    lines.push('try:', `    socket.create_connection(("127.0.0.1", ${options.port}), 1)`, '    seen.append("connected")', 'except OSError as error:', '    seen.append(type(error).__name__)')
  }
  lines.push('return {"pass": True, "score": 1, "reason": " | ".join(seen)}')
  return lines.join('\n')
}
