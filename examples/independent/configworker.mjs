// Reads one config file on a thread with a large stack (config.mjs,
// resolveOnBigStack): the YAML library recurses once per nesting level.
import { workerData, parentPort } from 'node:worker_threads'
import { resolveHere } from './config.mjs'

parentPort.postMessage(resolveHere(workerData.format, workerData.text))
