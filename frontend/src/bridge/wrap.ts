import { toBackendError } from './backend-error'

// wrap turns a bound call's rejection into a BackendError with the backend's code.
export async function wrap<T>(p: () => Promise<T>): Promise<T> {
  try {
    return await p()
  } catch (reason) {
    throw toBackendError(reason)
  }
}
