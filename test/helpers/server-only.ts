// Stand-in for the `server-only` marker package in tests (it throws outside the react-server condition).
export {};
