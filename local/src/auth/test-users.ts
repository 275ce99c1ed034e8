// The local OpenID Connect provider's test users (npm start -- --auth): two, so that the rule
// "a session belongs to the user who started it" can be tried by hand in two browser windows.
// Development only: the passwords are printed on the sign-in page and in local/README.md.

export interface TestUser {
  /** What one types on the sign-in page. */
  username: string;
  password: string;
  /** The token's `sub`: fixed, so the same user is the same identity after a restart. */
  sub: string;
  name: string;
  email: string;
}

export const TEST_USERS: readonly TestUser[] = [
  {
    username: 'alice',
    password: 'alice-speaks',
    sub: '5f0c8a51-7a3e-4c61-9d2b-a11ce0000001',
    name: 'Alice Example',
    email: 'alice@example.com',
  },
  {
    username: 'bob',
    password: 'bob-listens',
    sub: '9e4d2b17-3c58-4f0a-8e61-b0b000000002',
    name: 'Bob Example',
    email: 'bob@example.com',
  },
];

export function userBySub(sub: string): TestUser | undefined {
  return TEST_USERS.find((u) => u.sub === sub);
}

/** The user these credentials name, or undefined (a wrong name or password). */
export function checkPassword(username: string, password: string): TestUser | undefined {
  const user = TEST_USERS.find((u) => u.username === username.trim().toLowerCase());
  return user && user.password === password ? user : undefined;
}
