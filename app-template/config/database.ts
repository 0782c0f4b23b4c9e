import { defineDatabaseConfig } from 'kiln-framework'

/** `sqlite` is the embedded default; set DB_CONNECTION=pgsql and DATABASE_URL for PostgreSQL. */
export default defineDatabaseConfig(({ env }) => ({
  default: env.get('DB_CONNECTION', 'sqlite'),
  connections: {
    sqlite: { driver: 'sqlite', filename: env.get('DB_DATABASE', 'database/database.sqlite') },
    pgsql: { driver: 'pgsql', url: env.get('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/kiln') },
  },
}))
