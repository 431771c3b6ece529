// Word lists for realistic seeded records: streets, cities, company and person names.

export const STREET_NAMES = [
  'Maple', 'Oak', 'Cedar', 'Pine', 'Elm', 'Willow', 'Birch', 'Walnut', 'Chestnut', 'Spruce',
  'Lake', 'Hill', 'River', 'Park', 'Meadow', 'Sunset', 'Highland', 'Washington', 'Lincoln', 'Jefferson',
  'Madison', 'Franklin', 'Main', 'Church', 'Market', 'Mill', 'Spring', 'Ridge', 'Forest', 'Harbor',
  'Prospect', 'Union', 'Broad', 'Center', 'Grove', 'Orchard', 'Valley', 'Summit', 'Canyon', 'Bay',
];

export const STREET_SUFFIXES = ['St', 'Ave', 'Blvd', 'Rd', 'Ln', 'Dr', 'Ct', 'Way', 'Pl', 'Pkwy'];

export interface City {
  city: string;
  region: string;
  /** First three digits of the postal code. */
  zip3: string;
  latitude: number;
  longitude: number;
}

export const CITIES: readonly City[] = [
  { city: 'Austin', region: 'TX', zip3: '787', latitude: 30.2672, longitude: -97.7431 },
  { city: 'Dallas', region: 'TX', zip3: '752', latitude: 32.7767, longitude: -96.797 },
  { city: 'Houston', region: 'TX', zip3: '770', latitude: 29.7604, longitude: -95.3698 },
  { city: 'Denver', region: 'CO', zip3: '802', latitude: 39.7392, longitude: -104.9903 },
  { city: 'Boulder', region: 'CO', zip3: '803', latitude: 40.015, longitude: -105.2705 },
  { city: 'Phoenix', region: 'AZ', zip3: '850', latitude: 33.4484, longitude: -112.074 },
  { city: 'Tucson', region: 'AZ', zip3: '857', latitude: 32.2226, longitude: -110.9747 },
  { city: 'Seattle', region: 'WA', zip3: '981', latitude: 47.6062, longitude: -122.3321 },
  { city: 'Spokane', region: 'WA', zip3: '992', latitude: 47.6588, longitude: -117.426 },
  { city: 'Portland', region: 'OR', zip3: '972', latitude: 45.5152, longitude: -122.6784 },
  { city: 'Sacramento', region: 'CA', zip3: '958', latitude: 38.5816, longitude: -121.4944 },
  { city: 'San Diego', region: 'CA', zip3: '921', latitude: 32.7157, longitude: -117.1611 },
  { city: 'Fresno', region: 'CA', zip3: '937', latitude: 36.7378, longitude: -119.7871 },
  { city: 'Atlanta', region: 'GA', zip3: '303', latitude: 33.749, longitude: -84.388 },
  { city: 'Savannah', region: 'GA', zip3: '314', latitude: 32.0809, longitude: -81.0912 },
  { city: 'Charlotte', region: 'NC', zip3: '282', latitude: 35.2271, longitude: -80.8431 },
  { city: 'Raleigh', region: 'NC', zip3: '276', latitude: 35.7796, longitude: -78.6382 },
  { city: 'Nashville', region: 'TN', zip3: '372', latitude: 36.1627, longitude: -86.7816 },
  { city: 'Columbus', region: 'OH', zip3: '432', latitude: 39.9612, longitude: -82.9988 },
  { city: 'Cleveland', region: 'OH', zip3: '441', latitude: 41.4993, longitude: -81.6944 },
  { city: 'Minneapolis', region: 'MN', zip3: '554', latitude: 44.9778, longitude: -93.265 },
  { city: 'Madison', region: 'WI', zip3: '537', latitude: 43.0731, longitude: -89.4012 },
  { city: 'Boston', region: 'MA', zip3: '021', latitude: 42.3601, longitude: -71.0589 },
  { city: 'Burlington', region: 'VT', zip3: '054', latitude: 44.4759, longitude: -73.2121 },
  { city: 'Richmond', region: 'VA', zip3: '232', latitude: 37.5407, longitude: -77.436 },
  { city: 'Tampa', region: 'FL', zip3: '336', latitude: 27.9506, longitude: -82.4572 },
  { city: 'Orlando', region: 'FL', zip3: '328', latitude: 28.5383, longitude: -81.3792 },
  { city: 'Boise', region: 'ID', zip3: '837', latitude: 43.615, longitude: -116.2023 },
  { city: 'Salt Lake City', region: 'UT', zip3: '841', latitude: 40.7608, longitude: -111.891 },
  { city: 'Albuquerque', region: 'NM', zip3: '871', latitude: 35.0844, longitude: -106.6504 },
];

export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Elijah', 'Sophia', 'James', 'Isabella', 'William',
  'Mia', 'Benjamin', 'Charlotte', 'Lucas', 'Amelia', 'Henry', 'Harper', 'Theodore', 'Evelyn', 'Mateo',
  'Priya', 'Wei', 'Aisha', 'Diego', 'Yuki', 'Omar', 'Fatima', 'Mateus', 'Ingrid', 'Kwame',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Nguyen', 'Patel', 'Kim', 'Okafor', 'Schmidt', 'Rossi', 'Dubois', 'Silva', 'Cohen',
];

export const COMPANY_WORDS = [
  'First', 'Summit', 'Heritage', 'Pioneer', 'Liberty', 'Granite', 'Cascade', 'Keystone', 'Frontier', 'Harbor',
  'Evergreen', 'Meridian', 'Northstar', 'Bluebonnet', 'Prairie', 'Coastal', 'Legacy', 'Sterling', 'Beacon', 'Redwood',
];

export const CLIENT_SUFFIX_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  lender: ['Bank', 'Credit Union', 'Mortgage', 'Savings Bank', 'Lending'],
  amc: ['Appraisal Management', 'Valuation Services', 'AMC'],
  attorney: ['Law Group', 'Legal LLP', '& Associates'],
  accountant: ['CPA Group', 'Accounting', 'Tax Advisors'],
  government: ['County Assessor', 'Housing Authority', 'Department of Transportation'],
  insurer: ['Insurance', 'Mutual', 'Assurance'],
  private: ['Family Trust', 'Holdings', 'Estate'],
  other: ['Partners', 'Group', 'Ventures'],
};

export const CONTACT_TITLES = ['Loan Officer', 'Underwriter', 'Processor', 'Paralegal', 'Partner', 'Vice President', 'Asset Manager', 'Review Appraiser'];

export const INTENDED_USES = [
  'mortgage lending decision',
  'estate planning',
  'divorce settlement',
  'litigation support',
  'portfolio valuation',
  'tax appeal',
  'pre-listing pricing',
  'insurance replacement cost',
];

export const PROPERTY_NAME_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  single_family: ['Residence', 'Home', 'House'],
  condominium: ['Condominiums', 'Lofts', 'Residences'],
  townhouse: ['Townhomes', 'Row'],
  multi_family: ['Apartments', 'Flats', 'Commons'],
  manufactured: ['Mobile Home Park', 'Estates'],
  land: ['Acreage', 'Parcel', 'Ranch Land'],
  office: ['Office Park', 'Corporate Center', 'Professional Building'],
  retail: ['Shopping Center', 'Marketplace', 'Plaza'],
  industrial: ['Distribution Center', 'Industrial Park', 'Warehouse'],
  mixed_use: ['Mixed-Use Center', 'Commons', 'Square'],
  hospitality: ['Inn', 'Hotel', 'Suites'],
  agricultural: ['Farm', 'Orchard', 'Vineyard'],
  special_purpose: ['Church', 'School', 'Community Center'],
};
