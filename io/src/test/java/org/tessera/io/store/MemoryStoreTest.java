package org.tessera.io.store;

class MemoryStoreTest extends StoreContract {
    @Override
    protected Store newStore() {
        return new MemoryStore();
    }
}
