// Test-side access to the throwaway PostgreSQL cluster helper (scripts/postgres.ts).
export { startPostgres, postgresForTests, type PgCluster } from '../../scripts/postgres';
