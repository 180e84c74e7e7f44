// Captures and wizard state in IndexedDB, so that a reload (or a phone that drops the tab) resumes
// with the same verification and the same files. Blobs are stored as they are (no base64).
const dbName = 'idv-wizard';
const stateStore = 'states';
const blobStore = 'blobs';

let dbPromise: Promise<IDBDatabase> | null = null;

function openDb(): Promise<IDBDatabase> {
  dbPromise ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(dbName, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(stateStore);
      request.result.createObjectStore(blobStore);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return dbPromise;
}

async function run<T>(store: string, mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>) {
  const db = await openDb();
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const request = op(tx.objectStore(store));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const loadState = <T>(flowId: string) =>
  run<T | undefined>(stateStore, 'readonly', (s) => s.get(flowId) as IDBRequest<T | undefined>);
export const saveState = (flowId: string, state: unknown) =>
  run(stateStore, 'readwrite', (s) => s.put(state, flowId));
export const deleteState = (flowId: string) => run(stateStore, 'readwrite', (s) => s.delete(flowId));

export const putBlob = (key: string, blob: Blob) => run(blobStore, 'readwrite', (s) => s.put(blob, key));
export const getBlob = (key: string) =>
  run<Blob | undefined>(blobStore, 'readonly', (s) => s.get(key) as IDBRequest<Blob | undefined>);
/** Deletes every blob whose key starts with prefix (blob keys start with the verification id). */
export const deleteBlobs = (prefix: string) =>
  run(blobStore, 'readwrite', (s) => s.delete(IDBKeyRange.bound(prefix, `${prefix}\uffff`)));
