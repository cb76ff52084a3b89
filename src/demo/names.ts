/**
 * Data pools for the demo generator: people's names by nationality, teams, and venues by competition.
 * Athletes are random combinations of these pools, not real people; teams and venues are real-sounding
 * so the demo reads plausibly.
 */

export interface NationalityPool {
  /** ISO 3166-1 alpha-3. */
  code: string;
  country: string;
  male: readonly string[];
  female: readonly string[];
  last: readonly string[];
  cities: readonly string[];
}

const pool = (code: string, country: string, male: string[], female: string[], last: string[], cities: string[]): NationalityPool => ({
  code,
  country,
  male,
  female,
  last,
  cities,
});

export const NATIONALITIES: readonly NationalityPool[] = [
  pool(
    'USA',
    'United States',
    ['Jake', 'Tyler', 'Cody', 'Justin', 'Ryan', 'Chase', 'Brandon', 'Kyle', 'Logan', 'Austin', 'Cole', 'Mason'],
    ['Caroline', 'Madison', 'Taylor', 'Kaitlyn', 'Haley', 'Sierra', 'Jordan', 'Brooke'],
    ['Miller', 'Johnson', 'Anderson', 'Thompson', 'Walker', 'Carter', 'Hayes', 'Brooks', 'Sullivan', 'Bennett', 'Reed', 'Parker', 'Coleman', 'Foster'],
    ['San Clemente', 'Daytona Beach', 'Austin', 'Knoxville', 'Tulsa', 'Charlotte'],
  ),
  pool(
    'CAN',
    'Canada',
    ['Liam', 'Connor', 'Brett', 'Mathieu', 'Evan', 'Brendan', 'Noah', 'Owen'],
    ['Rachel', 'Kerri', 'Emma', 'Chelsea', 'Jocelyn'],
    ['Gagnon', 'Tremblay', 'MacDonald', 'Campbell', 'Fraser', 'Roy', 'Bouchard', 'Stewart', 'Morrison', 'Leblanc'],
    ['Calgary', 'Halifax', 'Toronto', 'Winnipeg'],
  ),
  pool(
    'MEX',
    'Mexico',
    ['Alejandro', 'Diego', 'Luis', 'Carlos', 'Jorge', 'Emiliano', 'Mateo', 'Ricardo'],
    ['Valeria', 'Fernanda', 'Ximena', 'Daniela', 'Sofía'],
    ['Hernández', 'García', 'Martínez', 'López', 'González', 'Ramírez', 'Torres', 'Flores', 'Cruz', 'Morales'],
    ['Guadalajara', 'Monterrey', 'Tijuana', 'Mexico City'],
  ),
  pool(
    'BRA',
    'Brazil',
    ['Gabriel', 'Filipe', 'Italo', 'João', 'Yago', 'Samuel', 'Lucas', 'Felipe', 'Matheus'],
    ['Tatiana', 'Luana', 'Silvana', 'Rayssa', 'Beatriz', 'Camila'],
    ['Silva', 'Santos', 'Souza', 'Oliveira', 'Pereira', 'Ferreira', 'Costa', 'Rodrigues', 'Almeida', 'Carvalho', 'Barbosa'],
    ['Florianópolis', 'Saquarema', 'São Paulo', 'Rio de Janeiro', 'Natal'],
  ),
  pool(
    'ARG',
    'Argentina',
    ['Santiago', 'Franco', 'Nicolás', 'Facundo', 'Tomás', 'Agustín'],
    ['Martina', 'Agustina', 'Lucía', 'Camila'],
    ['Fernández', 'Gómez', 'Díaz', 'Romero', 'Sosa', 'Benítez', 'Álvarez', 'Acosta'],
    ['Buenos Aires', 'Córdoba', 'Rosario', 'Mendoza'],
  ),
  pool(
    'PER',
    'Peru',
    ['Alonso', 'Lucca', 'Miguel', 'Joaquín', 'Sebastián'],
    ['Sofía', 'Daniella', 'Analí'],
    ['Quispe', 'Vargas', 'Chávez', 'Mendoza', 'Rojas', 'Castillo', 'Ortiz'],
    ['Lima', 'Trujillo', 'Piura'],
  ),
  pool(
    'AUS',
    'Australia',
    ['Jack', 'Ethan', 'Liam', 'Callum', 'Mitchell', 'Harrison', 'Bailey', 'Riley', 'Connor'],
    ['Molly', 'Isabella', 'Stephanie', 'Sally', 'Chloe', 'Indi'],
    ['Robinson', 'Wright', 'Mitchell', 'Kelly', 'Murphy', 'Harris', 'Clarke', 'Baker', 'Wilson', 'Campbell', 'Hughes'],
    ['Gold Coast', 'Margaret River', 'Newcastle', 'Sydney', 'Perth'],
  ),
  pool(
    'NZL',
    'New Zealand',
    ['Billy', 'Hamish', 'Ollie', 'Zane', 'Nico'],
    ['Ella', 'Paige', 'Sophie'],
    ['Ngata', 'Walsh', 'Te Aho', 'Brown', 'Henderson', 'Mackay', 'Reid'],
    ['Auckland', 'Raglan', 'Christchurch'],
  ),
  pool(
    'JPN',
    'Japan',
    ['Haruto', 'Ren', 'Sota', 'Yuto', 'Kaito', 'Riku', 'Daiki', 'Shun'],
    ['Sakura', 'Yui', 'Hina', 'Aoi', 'Mio', 'Rin'],
    ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Inaba'],
    ['Chiba', 'Tokyo', 'Osaka', 'Hiroshima'],
  ),
  pool(
    'FRA',
    'France',
    ['Jérémy', 'Maxime', 'Théo', 'Hugo', 'Marc', 'Dylan', 'Romain', 'Kilian'],
    ['Johanne', 'Léa', 'Manon', 'Camille', 'Justine'],
    ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Laurent', 'Girard'],
    ['Biarritz', 'Hossegor', 'Lyon', 'Toulouse'],
  ),
  pool(
    'ESP',
    'Spain',
    ['Íñigo', 'Aitor', 'Jon', 'Unai', 'Xabier', 'Álvaro', 'Pablo', 'Sergio'],
    ['Lucía', 'Ainhoa', 'Nerea', 'Marta'],
    ['Etxeberria', 'Goikoetxea', 'Aguirre', 'Larrañaga', 'Iturriaga', 'Sánchez', 'Ruiz', 'Navarro', 'Moreno', 'Jiménez'],
    ['Bilbao', 'San Sebastián', 'Gernika', 'Barcelona', 'Madrid'],
  ),
  pool(
    'PRT',
    'Portugal',
    ['Frederico', 'Vasco', 'Tiago', 'Rui', 'Miguel', 'Nuno'],
    ['Teresa', 'Yolanda', 'Inês', 'Mariana'],
    ['Morais', 'Ferreira', 'Santos', 'Carvalho', 'Sousa', 'Lopes', 'Gonçalves', 'Marques'],
    ['Ericeira', 'Peniche', 'Lisbon', 'Porto'],
  ),
  pool(
    'ITA',
    'Italy',
    ['Leonardo', 'Alessandro', 'Matteo', 'Lorenzo', 'Andrea', 'Marco'],
    ['Giulia', 'Federica', 'Chiara', 'Benedetta'],
    ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci'],
    ['Milan', 'Rome', 'Turin', 'Bologna'],
  ),
  pool(
    'DEU',
    'Germany',
    ['Lukas', 'Maximilian', 'Jonas', 'Felix', 'Tim', 'Niklas'],
    ['Anna', 'Lena', 'Isabel', 'Laura'],
    ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner', 'Becker', 'Hoffmann'],
    ['Berlin', 'Munich', 'Hamburg', 'Stuttgart'],
  ),
  pool(
    'NLD',
    'Netherlands',
    ['Max', 'Daan', 'Sem', 'Bram', 'Niels'],
    ['Femke', 'Sanne', 'Lotte'],
    ['de Jong', 'Jansen', 'de Vries', 'van Dijk', 'Bakker', 'Visser', 'Smit'],
    ['Amsterdam', 'Rotterdam', 'Utrecht'],
  ),
  pool(
    'GBR',
    'United Kingdom',
    ['Oliver', 'Harry', 'George', 'James', 'Thomas', 'Callum', 'Jamie'],
    ['Amelia', 'Freya', 'Isla', 'Grace'],
    ['Smith', 'Jones', 'Taylor', 'Davies', 'Evans', 'Wilson', 'Wright', 'Hall', 'Turner', 'Cooper'],
    ['Newquay', 'Manchester', 'Glasgow', 'Liverpool', 'Leeds'],
  ),
  pool(
    'IRL',
    'Ireland',
    ['Conor', 'Cian', 'Seán', 'Darragh', 'Eoin'],
    ['Aoife', 'Niamh', 'Ciara'],
    ['Murphy', 'Kelly', "O'Brien", 'Byrne', 'Ryan', "O'Sullivan", 'Doyle', 'Walsh'],
    ['Dublin', 'Cork', 'Galway'],
  ),
  pool(
    'ZAF',
    'South Africa',
    ['Matthew', 'Ruan', 'Pieter', 'Bongani', 'Sipho', 'Dylan'],
    ['Bianca', 'Sarah', 'Thandi', 'Lize'],
    ['van der Merwe', 'Botha', 'Nel', 'Pretorius', 'Dlamini', 'Naidoo', 'Khumalo', 'Ndlovu'],
    ['Durban', 'Cape Town', 'Jeffreys Bay', 'Johannesburg'],
  ),
  pool(
    'SWE',
    'Sweden',
    ['Erik', 'Oscar', 'Anton', 'Viktor', 'Gustav'],
    ['Elin', 'Sara', 'Ebba', 'Maja'],
    ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Lindqvist'],
    ['Stockholm', 'Gothenburg', 'Malmö'],
  ),
  pool(
    'FIN',
    'Finland',
    ['Eetu', 'Juho', 'Lauri', 'Niko', 'Aleksi'],
    ['Aino', 'Eveliina', 'Henna', 'Kristiina'],
    ['Virtanen', 'Korhonen', 'Mäkinen', 'Nieminen', 'Heikkinen', 'Koskinen', 'Lehtonen'],
    ['Tampere', 'Helsinki', 'Nokia', 'Turku'],
  ),
];

type Weights = ReadonlyArray<readonly [string, number]>;

const MOTO: Weights = [['USA', 8], ['FRA', 2], ['AUS', 2], ['GBR', 1], ['CAN', 1], ['ZAF', 1], ['NZL', 1]];
const SPRINT_CARS: Weights = [['USA', 10], ['AUS', 2], ['NZL', 1], ['CAN', 1]];
const BARE_KNUCKLE: Weights = [['USA', 6], ['GBR', 3], ['BRA', 1], ['MEX', 1], ['IRL', 1], ['AUS', 1]];

/** Where each individual competition's athletes come from (nationality code, weight). */
export const SPORT_NATIONALITIES: Readonly<Record<string, Weights>> = {
  wsl: [['AUS', 5], ['BRA', 6], ['USA', 5], ['FRA', 2], ['ZAF', 2], ['JPN', 2], ['PRT', 1], ['PER', 1]],
  sls: [['USA', 6], ['BRA', 4], ['JPN', 4], ['AUS', 1], ['CAN', 1]],
  spr: MOTO,
  motocrs: MOTO,
  sprmtcrs: MOTO,
  pbr: [['USA', 6], ['BRA', 5], ['AUS', 1], ['CAN', 1], ['MEX', 1]],
  bkfc: BARE_KNUCKLE,
  byb: BARE_KNUCKLE,
  powerslap: [['USA', 6], ['MEX', 1], ['BRA', 1], ['GBR', 1], ['CAN', 1]],
  lux: [['MEX', 6], ['USA', 1], ['ARG', 1], ['PER', 1], ['BRA', 1]],
  raf: [['USA', 5], ['JPN', 2], ['CAN', 1], ['MEX', 1], ['FIN', 1]],
  f1: [['GBR', 3], ['NLD', 1], ['MEX', 1], ['ESP', 1], ['FRA', 2], ['DEU', 1], ['AUS', 1], ['CAN', 1], ['JPN', 1], ['ITA', 1], ['NZL', 1], ['BRA', 1], ['USA', 1], ['ARG', 1]],
  motoamerica: [['USA', 6], ['CAN', 1], ['AUS', 1], ['GBR', 1], ['ESP', 1], ['BRA', 1], ['ZAF', 1]],
  usac: SPRINT_CARS,
  worldoutlaws: SPRINT_CARS,
  hlrs: SPRINT_CARS,
  nhra: [['USA', 10], ['CAN', 1], ['AUS', 1]],
  fdrift: [['USA', 5], ['IRL', 1], ['JPN', 2], ['NZL', 1], ['SWE', 1], ['CAN', 1], ['GBR', 1]],
  jaialai: [['ESP', 5], ['FRA', 2], ['USA', 1], ['MEX', 1]],
  xgame: [['USA', 5], ['JPN', 3], ['BRA', 2], ['AUS', 2], ['CAN', 2], ['FRA', 1], ['SWE', 1], ['NZL', 1]],
  dgpt: [['USA', 6], ['FIN', 2], ['SWE', 2], ['CAN', 1], ['AUS', 1]],
  athletesunlimited: [['USA', 8], ['CAN', 1], ['MEX', 1], ['BRA', 1], ['AUS', 1], ['JPN', 1]],
  spectation: [['USA', 5], ['GBR', 1], ['CAN', 1], ['AUS', 1], ['BRA', 1]],
  swimming: [['USA', 4], ['AUS', 4], ['GBR', 2], ['CAN', 2], ['FRA', 1], ['ITA', 1], ['JPN', 1], ['NLD', 1], ['DEU', 1], ['SWE', 1]],
};

/** Weight classes with their upper limit in kilograms, for combat sports. */
export const WEIGHT_CLASSES: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  bkfc: [['Flyweight', 57], ['Bantamweight', 61], ['Featherweight', 66], ['Lightweight', 70], ['Welterweight', 75], ['Middleweight', 79], ['Light Heavyweight', 84], ['Cruiserweight', 91], ['Heavyweight', 120]],
  byb: [['Bantamweight', 61], ['Featherweight', 66], ['Lightweight', 70], ['Welterweight', 75], ['Middleweight', 79], ['Cruiserweight', 91], ['Heavyweight', 120]],
  lux: [['Flyweight', 57], ['Bantamweight', 61], ['Featherweight', 66], ['Lightweight', 70], ['Welterweight', 77], ['Middleweight', 84], ['Light Heavyweight', 93]],
  powerslap: [['Welterweight', 77], ['Middleweight', 84], ['Light Heavyweight', 93], ['Heavyweight', 120], ['Super Heavyweight', 160]],
  raf: [['65 kg', 65], ['74 kg', 74], ['86 kg', 86], ['97 kg', 97], ['125 kg', 125]],
};

export interface Venue {
  /** Event-name stem held at this venue. */
  event: string;
  /** Published as eventLocation. */
  location: string;
  /** Published as eventLocationGroup: country or region. */
  group: string;
}

const v = (event: string, location: string, group: string): Venue => ({ event, location, group });

const SUPERCROSS: Venue[] = [
  v('Anaheim', 'Angel Stadium, Anaheim', 'California'),
  v('San Diego', 'Snapdragon Stadium, San Diego', 'California'),
  v('Anaheim', 'Angel Stadium, Anaheim', 'California'),
  v('Glendale', 'State Farm Stadium, Glendale', 'Arizona'),
  v('Tampa', 'Raymond James Stadium, Tampa', 'Florida'),
  v('Detroit', 'Ford Field, Detroit', 'Michigan'),
  v('Arlington', 'AT&T Stadium, Arlington', 'Texas'),
  v('Daytona', 'Daytona International Speedway, Daytona Beach', 'Florida'),
  v('Birmingham', 'Protective Stadium, Birmingham', 'Alabama'),
  v('Indianapolis', 'Lucas Oil Stadium, Indianapolis', 'Indiana'),
  v('Seattle', 'Lumen Field, Seattle', 'Washington'),
  v('Foxborough', 'Gillette Stadium, Foxborough', 'Massachusetts'),
  v('Philadelphia', 'Lincoln Financial Field, Philadelphia', 'Pennsylvania'),
  v('Denver', 'Empower Field at Mile High, Denver', 'Colorado'),
  v('Salt Lake City', 'Rice-Eccles Stadium, Salt Lake City', 'Utah'),
];

const SPRINT_CAR_TRACKS: Venue[] = [
  v('Kings Royal', 'Eldora Speedway, Rossburg', 'Ohio'),
  v('Knoxville Nationals', 'Knoxville Raceway, Knoxville', 'Iowa'),
  v('National Open', 'Williams Grove Speedway, Mechanicsburg', 'Pennsylvania'),
  v('Brad Doty Classic', 'Attica Raceway Park, Attica', 'Ohio'),
  v('Ironman 55', 'Federated Auto Parts Raceway at I-55, Pevely', 'Missouri'),
  v('Jackson Nationals', 'Jackson Motorplex, Jackson', 'Minnesota'),
  v('Gold Cup Race of Champions', 'Silver Dollar Speedway, Chico', 'California'),
  v('DIRTcar Nationals', 'Volusia Speedway Park, Barberville', 'Florida'),
  v('Bristol Throwdown', 'Bristol Motor Speedway, Bristol', 'Tennessee'),
  v('World Finals', 'The Dirt Track at Charlotte, Concord', 'North Carolina'),
];

const COMBAT_ARENAS: Venue[] = [
  v('Hollywood', 'Seminole Hard Rock Hotel & Casino, Hollywood', 'Florida'),
  v('Tampa', 'Florida State Fairgrounds, Tampa', 'Florida'),
  v('Lowell', 'Tsongas Center, Lowell', 'Massachusetts'),
  v('Glasgow', 'OVO Hydro, Glasgow', 'Scotland'),
  v('Newcastle', 'Utilita Arena, Newcastle', 'England'),
  v('Uncasville', 'Mohegan Sun Arena, Uncasville', 'Connecticut'),
  v('Albuquerque', 'Tingley Coliseum, Albuquerque', 'New Mexico'),
  v('Denver', 'Magness Arena, Denver', 'Colorado'),
  v('Biloxi', 'Mississippi Coast Coliseum, Biloxi', 'Mississippi'),
  v('Knoxville', 'Knoxville Civic Coliseum, Knoxville', 'Tennessee'),
];

/** Venues per competition key; team sports that play at home arenas use their teams' venues instead. */
export const VENUES: Readonly<Record<string, readonly Venue[]>> = {
  wsl: [
    v('Lexus Pipe Pro', 'Banzai Pipeline, Oahu', 'Hawaii'),
    v('Hurley Pro Sunset Beach', 'Sunset Beach, Oahu', 'Hawaii'),
    v('MEO Rip Curl Pro Portugal', 'Supertubos, Peniche', 'Portugal'),
    v('Rip Curl Pro Bells Beach', 'Bells Beach, Victoria', 'Australia'),
    v('Gold Coast Pro', 'Snapper Rocks, Gold Coast', 'Australia'),
    v('Western Australia Margaret River Pro', 'Main Break, Margaret River', 'Australia'),
    v('Surf City El Salvador Pro', 'Punta Roca, La Libertad', 'El Salvador'),
    v('VIVO Rio Pro', 'Itaúna, Saquarema', 'Brazil'),
    v('Corona Fiji Pro', 'Cloudbreak, Tavarua', 'Fiji'),
    v('SHISEIDO Tahiti Pro', "Teahupo'o, Tahiti", 'French Polynesia'),
    v('Corona Open J-Bay', 'Supertubes, Jeffreys Bay', 'South Africa'),
    v('Lexus WSL Finals', 'Lower Trestles, San Clemente', 'California'),
  ],
  sls: [
    v('SLS Championship Tour: Jacksonville', 'VyStar Veterans Memorial Arena, Jacksonville', 'Florida'),
    v('SLS Championship Tour: Lake Havasu', 'Lake Havasu State Park, Lake Havasu City', 'Arizona'),
    v('SLS Championship Tour: Tokyo', 'Ariake Arena, Tokyo', 'Japan'),
    v('SLS Championship Tour: Rio de Janeiro', 'Parque Olímpico, Rio de Janeiro', 'Brazil'),
    v('SLS Championship Tour: Sydney', 'Qudos Bank Arena, Sydney', 'Australia'),
    v('SLS Super Crown', 'Ginásio do Ibirapuera, São Paulo', 'Brazil'),
  ],
  spr: SUPERCROSS,
  motocrs: [
    v('Fox Raceway National', 'Fox Raceway, Pala', 'California'),
    v('Hangtown Classic', 'Prairie City SVRA, Rancho Cordova', 'California'),
    v('Thunder Valley National', 'Thunder Valley Motocross Park, Lakewood', 'Colorado'),
    v('High Point National', 'High Point Raceway, Mt. Morris', 'Pennsylvania'),
    v('RedBud National', 'RedBud MX, Buchanan', 'Michigan'),
    v('Southwick National', 'The Wick 338, Southwick', 'Massachusetts'),
    v('Spring Creek National', 'Spring Creek MX Park, Millville', 'Minnesota'),
    v('Washougal National', 'Washougal MX Park, Washougal', 'Washington'),
    v('Unadilla National', 'Unadilla MX, New Berlin', 'New York'),
    v('Budds Creek National', 'Budds Creek Motocross Park, Mechanicsville', 'Maryland'),
    v('Ironman National', 'Ironman Raceway, Crawfordsville', 'Indiana'),
  ],
  sprmtcrs: [
    v('SMX Playoff Round 1', 'zMAX Dragway, Concord', 'North Carolina'),
    v('SMX Playoff Round 2', 'Chicagoland Speedway, Joliet', 'Illinois'),
    v('SMX World Championship Final', 'Los Angeles Memorial Coliseum, Los Angeles', 'California'),
    v('SMX Playoff Texas', 'Texas Motor Speedway, Fort Worth', 'Texas'),
    v('SMX Playoff Las Vegas', 'Las Vegas Motor Speedway, Las Vegas', 'Nevada'),
  ],
  f1: [
    v('Bahrain Grand Prix', 'Bahrain International Circuit, Sakhir', 'Bahrain'),
    v('Saudi Arabian Grand Prix', 'Jeddah Corniche Circuit, Jeddah', 'Saudi Arabia'),
    v('Australian Grand Prix', 'Albert Park Circuit, Melbourne', 'Australia'),
    v('Japanese Grand Prix', 'Suzuka International Racing Course, Suzuka', 'Japan'),
    v('Chinese Grand Prix', 'Shanghai International Circuit, Shanghai', 'China'),
    v('Miami Grand Prix', 'Miami International Autodrome, Miami Gardens', 'United States'),
    v('Monaco Grand Prix', 'Circuit de Monaco, Monte Carlo', 'Monaco'),
    v('Canadian Grand Prix', 'Circuit Gilles Villeneuve, Montreal', 'Canada'),
    v('Spanish Grand Prix', 'Circuit de Barcelona-Catalunya, Montmeló', 'Spain'),
    v('Austrian Grand Prix', 'Red Bull Ring, Spielberg', 'Austria'),
    v('British Grand Prix', 'Silverstone Circuit, Silverstone', 'United Kingdom'),
    v('Hungarian Grand Prix', 'Hungaroring, Mogyoród', 'Hungary'),
    v('Belgian Grand Prix', 'Circuit de Spa-Francorchamps, Stavelot', 'Belgium'),
    v('Dutch Grand Prix', 'Circuit Zandvoort, Zandvoort', 'Netherlands'),
    v('Italian Grand Prix', 'Autodromo Nazionale Monza, Monza', 'Italy'),
    v('Singapore Grand Prix', 'Marina Bay Street Circuit, Singapore', 'Singapore'),
    v('United States Grand Prix', 'Circuit of the Americas, Austin', 'United States'),
    v('Mexico City Grand Prix', 'Autódromo Hermanos Rodríguez, Mexico City', 'Mexico'),
    v('São Paulo Grand Prix', 'Autódromo José Carlos Pace, São Paulo', 'Brazil'),
    v('Las Vegas Grand Prix', 'Las Vegas Strip Circuit, Las Vegas', 'United States'),
    v('Abu Dhabi Grand Prix', 'Yas Marina Circuit, Abu Dhabi', 'United Arab Emirates'),
  ],
  motoamerica: [
    v('Superbike Speedfest at Road Atlanta', 'Michelin Raceway Road Atlanta, Braselton', 'Georgia'),
    v('Superbikes at Barber', 'Barber Motorsports Park, Birmingham', 'Alabama'),
    v('Superbikes at Road America', 'Road America, Elkhart Lake', 'Wisconsin'),
    v('Superbikes at The Ridge', 'Ridge Motorsports Park, Shelton', 'Washington'),
    v('Superbikes at Laguna Seca', 'WeatherTech Raceway Laguna Seca, Monterey', 'California'),
    v('Superbikes at Brainerd', 'Brainerd International Raceway, Brainerd', 'Minnesota'),
    v('Championship of Pittsburgh', 'Pittsburgh International Race Complex, Wampum', 'Pennsylvania'),
    v('Superbikes at New Jersey', 'New Jersey Motorsports Park, Millville', 'New Jersey'),
    v('Superbikes at VIR', 'Virginia International Raceway, Alton', 'Virginia'),
  ],
  usac: [
    v('Indiana Sprint Week: Kokomo', 'Kokomo Speedway, Kokomo', 'Indiana'),
    v('Indiana Sprint Week: Lawrenceburg', 'Lawrenceburg Speedway, Lawrenceburg', 'Indiana'),
    v('Indiana Sprint Week: Bloomington', 'Bloomington Speedway, Bloomington', 'Indiana'),
    v('Indiana Sprint Week: Lincoln Park', 'Lincoln Park Speedway, Putnamville', 'Indiana'),
    v('Indiana Sprint Week: Tri-State', 'Tri-State Speedway, Haubstadt', 'Indiana'),
    v('Four Crown Nationals', 'Eldora Speedway, Rossburg', 'Ohio'),
    v('Oval Nationals', 'Perris Auto Speedway, Perris', 'California'),
    v('Tony Hulman Classic', 'Terre Haute Action Track, Terre Haute', 'Indiana'),
    v('Jason Leffler Memorial', 'Wayne County Speedway, Orrville', 'Ohio'),
  ],
  worldoutlaws: SPRINT_CAR_TRACKS,
  hlrs: [
    v('High Limit at Lernerville', 'Lernerville Speedway, Sarver', 'Pennsylvania'),
    v("High Limit at Huset's", "Huset's Speedway, Brandon", 'South Dakota'),
    v('High Limit at Port Royal', 'Port Royal Speedway, Port Royal', 'Pennsylvania'),
    v('High Limit at Kokomo', 'Kokomo Speedway, Kokomo', 'Indiana'),
    v('High Limit at Tri-City', 'Tri-City Speedway, Granite City', 'Illinois'),
    v('High Limit at Wilmot', 'Wilmot Raceway, Wilmot', 'Wisconsin'),
    v('High Limit at Eldora', 'Eldora Speedway, Rossburg', 'Ohio'),
    v('High Limit at Lakeside', 'Lakeside Speedway, Kansas City', 'Kansas'),
  ],
  nhra: [
    v('Winternationals', 'Auto Club Raceway at Pomona, Pomona', 'California'),
    v('Gatornationals', 'Gainesville Raceway, Gainesville', 'Florida'),
    v('Four-Wide Nationals', 'zMAX Dragway, Concord', 'North Carolina'),
    v('Route 66 Nationals', 'Route 66 Raceway, Joliet', 'Illinois'),
    v('Mile-High Nationals', 'Bandimere Speedway, Morrison', 'Colorado'),
    v('Northwest Nationals', 'Pacific Raceways, Kent', 'Washington'),
    v('Sonoma Nationals', 'Sonoma Raceway, Sonoma', 'California'),
    v('U.S. Nationals', 'Lucas Oil Indianapolis Raceway Park, Brownsburg', 'Indiana'),
    v('Texas FallNationals', 'Texas Motorplex, Ennis', 'Texas'),
    v('Nevada Nationals', 'The Strip at Las Vegas Motor Speedway, Las Vegas', 'Nevada'),
    v('Arizona Nationals', 'Firebird Motorsports Park, Chandler', 'Arizona'),
    v('In-N-Out Burger Finals', 'Auto Club Raceway at Pomona, Pomona', 'California'),
  ],
  fdrift: [
    v('Streets of Long Beach', 'Long Beach Street Circuit, Long Beach', 'California'),
    v('Road to the Championship', 'Michelin Raceway Road Atlanta, Braselton', 'Georgia'),
    v('Orlando', 'Orlando Speed World, Orlando', 'Florida'),
    v('Scorched', 'Old Bridge Township Raceway Park, Englishtown', 'New Jersey'),
    v('Crossroads', 'World Wide Technology Raceway, Madison', 'Illinois'),
    v('The Gauntlet', 'Evergreen Speedway, Monroe', 'Washington'),
    v('Throwdown', 'Utah Motorsports Campus, Tooele', 'Utah'),
    v('Title Fight', 'Irwindale Speedway, Irwindale', 'California'),
  ],
  pbr: [
    v('Unleash The Beast Sacramento', 'Golden 1 Center, Sacramento', 'California'),
    v('Unleash The Beast Oklahoma City', 'Paycom Center, Oklahoma City', 'Oklahoma'),
    v('Unleash The Beast Billings', 'First Interstate Arena, Billings', 'Montana'),
    v('Unleash The Beast Kansas City', 'T-Mobile Center, Kansas City', 'Missouri'),
    v('Unleash The Beast Chicago', 'Allstate Arena, Rosemont', 'Illinois'),
    v('Unleash The Beast Tacoma', 'Tacoma Dome, Tacoma', 'Washington'),
    v('Unleash The Beast Austin', 'Moody Center, Austin', 'Texas'),
    v('Unleash The Beast Nashville', 'Bridgestone Arena, Nashville', 'Tennessee'),
    v('Unleash The Beast Sioux Falls', 'Denny Sanford Premier Center, Sioux Falls', 'South Dakota'),
    v('PBR World Finals', 'AT&T Stadium, Arlington', 'Texas'),
  ],
  bkfc: COMBAT_ARENAS,
  byb: [
    v('Dubai', 'Dubai Duty Free Tennis Stadium, Dubai', 'United Arab Emirates'),
    v('Tampa', 'Seminole Hard Rock Hotel & Casino, Tampa', 'Florida'),
    v('Miami', 'Watsco Center, Coral Gables', 'Florida'),
    v('Biloxi', 'Mississippi Coast Coliseum, Biloxi', 'Mississippi'),
  ],
  powerslap: [
    v('Las Vegas', 'Fontainebleau Las Vegas, Las Vegas', 'Nevada'),
    v('Abu Dhabi', 'Etihad Arena, Abu Dhabi', 'United Arab Emirates'),
    v('Las Vegas', 'Meta APEX, Las Vegas', 'Nevada'),
    v('Salt Lake City', 'Delta Center, Salt Lake City', 'Utah'),
  ],
  lux: [
    v('Mexico City', 'Arena CDMX, Mexico City', 'Mexico'),
    v('Monterrey', 'Arena Monterrey, Monterrey', 'Mexico'),
    v('Guadalajara', 'Arena Guadalajara, Guadalajara', 'Mexico'),
    v('Tijuana', 'Auditorio Fausto Gutiérrez, Tijuana', 'Mexico'),
    v('Puebla', 'Auditorio GNP Seguros, Puebla', 'Mexico'),
  ],
  raf: [
    v('Cleveland', 'Wolstein Center, Cleveland', 'Ohio'),
    v('Fort Lauderdale', 'War Memorial Auditorium, Fort Lauderdale', 'Florida'),
    v('Columbus', 'Nationwide Arena, Columbus', 'Ohio'),
    v('Oklahoma City', 'Paycom Center, Oklahoma City', 'Oklahoma'),
  ],
  jaialai: [
    v('Battle Court', 'Magic City Casino Fronton, Miami', 'Florida'),
    v('Dania Jai-Alai', 'The Casino at Dania Beach Fronton, Dania Beach', 'Florida'),
  ],
  xgame: [
    v('X Games Aspen', 'Buttermilk Mountain, Aspen', 'Colorado'),
    v('X Games Ventura', 'Ventura County Fairgrounds, Ventura', 'California'),
    v('X Games Chiba', 'ZOZO Marine Stadium, Chiba', 'Japan'),
    v('X Games Salt Lake City', 'Utah State Fairpark, Salt Lake City', 'Utah'),
  ],
  dgpt: [
    v('Las Vegas Challenge', 'Wildhorse Disc Golf Course, Las Vegas', 'Nevada'),
    v('Waco Annual Charity Open', 'Brazos Park East, Waco', 'Texas'),
    v('Jonesboro Open', 'Disc Side of Heaven, Jonesboro', 'Arkansas'),
    v('Music City Open', 'Riverbend Disc Golf Course, Nashville', 'Tennessee'),
    v('Champions Cup', 'Northwoods Golf Club, Appling', 'Georgia'),
    v('European Open', 'Tali Disc Golf Park, Helsinki', 'Finland'),
    v('Preserve Championship', 'The Preserve, Clearwater', 'Minnesota'),
    v('Green Mountain Championship', "Smugglers' Notch Resort, Jeffersonville", 'Vermont'),
    v('Portland Open', 'Milo McIver State Park, Estacada', 'Oregon'),
    v('MVP Open', 'Maple Hill, Leicester', 'Massachusetts'),
    v('United States Disc Golf Championship', 'Winthrop Gold, Rock Hill', 'South Carolina'),
  ],
  athletesunlimited: [
    v('AU Pro Softball', 'Parkway Bank Sports Complex, Rosemont', 'Illinois'),
    v('AU Pro Volleyball', 'Sanford Pentagon, Sioux Falls', 'South Dakota'),
    v('AU Pro Basketball', 'Cox Pavilion, Las Vegas', 'Nevada'),
  ],
  spectation: [
    v('Spectation Showdown Las Vegas', 'MGM Grand Garden Arena, Las Vegas', 'Nevada'),
    v('Spectation Invitational Miami', 'Kaseya Center, Miami', 'Florida'),
    v('Spectation Night of Champions', 'Hulu Theater at Madison Square Garden, New York', 'New York'),
    v('Spectation Challenge Los Angeles', 'YouTube Theater, Inglewood', 'California'),
    v('Spectation Open Austin', 'Moody Center, Austin', 'Texas'),
  ],
  swimming: [
    v('Pro Swim Series Westmont', 'FMC Natatorium, Westmont', 'Illinois'),
    v('Pro Swim Series Knoxville', 'Allan Jones Aquatic Center, Knoxville', 'Tennessee'),
    v('Pro Swim Series Fort Lauderdale', 'Fort Lauderdale Aquatic Complex, Fort Lauderdale', 'Florida'),
    v('Pro Swim Series Mission Viejo', 'Marguerite Aquatic Center, Mission Viejo', 'California'),
    v('US Open Championships', 'Greensboro Aquatic Center, Greensboro', 'North Carolina'),
    v('Swimming World Cup Berlin', 'Schwimm- und Sprunghalle im Europasportpark, Berlin', 'Germany'),
    v('Swimming World Cup Singapore', 'OCBC Aquatic Centre, Singapore', 'Singapore'),
  ],
  gsoc: [
    v('Masters', 'Sleeman Centre, Guelph', 'Ontario'),
    v('Tour Challenge', 'Eastlink Centre, Charlottetown', 'Prince Edward Island'),
    v('The National', 'Pictou County Wellness Centre, New Glasgow', 'Nova Scotia'),
    v('Canadian Open', 'Co-operators Centre, Regina', 'Saskatchewan'),
    v("Players' Championship", 'Mattamy Athletic Centre, Toronto', 'Ontario'),
    v('Champions Cup', 'Credit Union Place, Summerside', 'Prince Edward Island'),
  ],
  '3ice': [
    v('3ICE Dallas', 'Comerica Center, Frisco', 'Texas'),
    v('3ICE Nashville', 'Ford Ice Center, Antioch', 'Tennessee'),
    v('3ICE Chicago', 'Fifth Third Arena, Chicago', 'Illinois'),
    v('3ICE Boston', 'Agganis Arena, Boston', 'Massachusetts'),
    v('3ICE Denver', 'Denver Coliseum, Denver', 'Colorado'),
    v('3ICE Championship', 'Wells Fargo Center, Philadelphia', 'Pennsylvania'),
  ],
};

export interface TeamSeed {
  name: string;
  shortName: string;
  /** Home venue, published as eventLocation for home games. */
  venue: string;
  group: string;
}

const t = (name: string, shortName: string, venue: string, group: string): TeamSeed => ({ name, shortName, venue, group });

/** Team pools per team-sport competition key (6-12 are drawn from each). */
export const TEAMS: Readonly<Record<string, readonly TeamSeed[]>> = {
  masl: [
    t('Kansas City Comets', 'KC', 'Cable Dahmer Arena, Independence', 'Missouri'),
    t('St. Louis Ambush', 'STL', 'The Family Arena, St. Charles', 'Missouri'),
    t('Milwaukee Wave', 'MIL', 'UW-Milwaukee Panther Arena, Milwaukee', 'Wisconsin'),
    t('Baltimore Blast', 'BAL', 'SECU Arena, Towson', 'Maryland'),
    t('Tacoma Stars', 'TAC', 'accesso ShoWare Center, Kent', 'Washington'),
    t('Utica City FC', 'UTI', 'Adirondack Bank Center, Utica', 'New York'),
    t('San Diego Sockers', 'SD', 'Pechanga Arena, San Diego', 'California'),
    t('Chihuahua Savage', 'CHI', 'Gimnasio Manuel Bernardo Aguirre, Chihuahua', 'Mexico'),
    t('Empire Strykers', 'EMP', 'Toyota Arena, Ontario', 'California'),
    t('Monterrey Flash', 'MTY', 'Gimnasio Nuevo León Independiente, Monterrey', 'Mexico'),
    t('Harrisburg Heat', 'HAR', 'Pennsylvania Farm Show Complex, Harrisburg', 'Pennsylvania'),
    t('Dallas Sidekicks', 'DAL', 'Comerica Center, Frisco', 'Texas'),
  ],
  nll: [
    t('Buffalo Bandits', 'BUF', 'KeyBank Center, Buffalo', 'New York'),
    t('Toronto Rock', 'TOR', 'TD Coliseum, Hamilton', 'Ontario'),
    t('Philadelphia Wings', 'PHI', 'Wells Fargo Center, Philadelphia', 'Pennsylvania'),
    t('Colorado Mammoth', 'COL', 'Ball Arena, Denver', 'Colorado'),
    t('Calgary Roughnecks', 'CGY', 'Scotiabank Saddledome, Calgary', 'Alberta'),
    t('San Diego Seals', 'SD', 'Pechanga Arena, San Diego', 'California'),
    t('Halifax Thunderbirds', 'HFX', 'Scotiabank Centre, Halifax', 'Nova Scotia'),
    t('Georgia Swarm', 'GA', 'Gas South Arena, Duluth', 'Georgia'),
    t('Rochester Knighthawks', 'ROC', 'Blue Cross Arena, Rochester', 'New York'),
    t('Vancouver Warriors', 'VAN', 'Rogers Arena, Vancouver', 'British Columbia'),
    t('Saskatchewan Rush', 'SSK', 'SaskTel Centre, Saskatoon', 'Saskatchewan'),
    t('Albany FireWolves', 'ALB', 'MVP Arena, Albany', 'New York'),
    t('Las Vegas Desert Dogs', 'LV', "Lee's Family Forum, Henderson", 'Nevada'),
    t('Ottawa Black Bears', 'OTT', 'Canadian Tire Centre, Ottawa', 'Ontario'),
  ],
  ifl: [
    t('Arizona Rattlers', 'ARI', 'Footprint Center, Phoenix', 'Arizona'),
    t('Bay Area Panthers', 'BAP', 'SAP Center, San Jose', 'California'),
    t('Frisco Fighters', 'FRI', 'Comerica Center, Frisco', 'Texas'),
    t('Iowa Barnstormers', 'IOW', "Casey's Center, Des Moines", 'Iowa'),
    t('Green Bay Blizzard', 'GB', 'Resch Center, Green Bay', 'Wisconsin'),
    t('Quad City Steamwheelers', 'QC', 'Vibrant Arena at The MARK, Moline', 'Illinois'),
    t('Massachusetts Pirates', 'MASS', 'DCU Center, Worcester', 'Massachusetts'),
    t('Tucson Sugar Skulls', 'TUC', 'Tucson Arena, Tucson', 'Arizona'),
    t('San Antonio Gunslingers', 'SA', 'Freeman Coliseum, San Antonio', 'Texas'),
    t('Northern Arizona Wranglers', 'NAZ', 'Findlay Toyota Center, Prescott Valley', 'Arizona'),
    t('Vegas Knight Hawks', 'VGS', "Lee's Family Forum, Henderson", 'Nevada'),
    t('Sioux Falls Storm', 'SF', 'Denny Sanford Premier Center, Sioux Falls', 'South Dakota'),
  ],
  mltt: [
    t('Texas Smash', 'TXS', 'Esports Stadium Arlington, Arlington', 'Texas'),
    t('Princeton Revolution', 'PRI', 'Dillon Gymnasium, Princeton', 'New Jersey'),
    t('New York Slice', 'NYS', 'The Armory, New York', 'New York'),
    t('Atlanta Blazers', 'ATL', 'Gas South Convention Center, Duluth', 'Georgia'),
    t('Portland Paddlers', 'POR', 'Portland Expo Center, Portland', 'Oregon'),
    t('Chicago Wind', 'CHI', 'Wintrust Arena, Chicago', 'Illinois'),
    t('Bay Area Blasters', 'BAY', 'San Jose Civic, San Jose', 'California'),
    t('Carolina Gold Rush', 'CAR', 'Bojangles Coliseum, Charlotte', 'North Carolina'),
    t('Los Angeles Spinners', 'LAS', 'Pasadena Convention Center, Pasadena', 'California'),
    t('Florida Crocs', 'FLA', 'Osceola Heritage Park, Kissimmee', 'Florida'),
  ],
  jaialai: [
    t('Goitia / Olaskoaga', 'GOI', 'Magic City Casino Fronton, Miami', 'Florida'),
    t('Erik / Arrieta', 'ERI', 'Magic City Casino Fronton, Miami', 'Florida'),
    t('Ibai / Lasa', 'IBA', 'The Casino at Dania Beach Fronton, Dania Beach', 'Florida'),
    t('Aitor / Zubizarreta', 'AIT', 'The Casino at Dania Beach Fronton, Dania Beach', 'Florida'),
    t('Iker / Mendizabal', 'IKE', 'Magic City Casino Fronton, Miami', 'Florida'),
    t('Xabier / Etxeberria', 'XAB', 'Magic City Casino Fronton, Miami', 'Florida'),
    t('Unai / Goikoetxea', 'UNA', 'The Casino at Dania Beach Fronton, Dania Beach', 'Florida'),
    t('Jon / Aranburu', 'JON', 'The Casino at Dania Beach Fronton, Dania Beach', 'Florida'),
    t('Mikel / Larrañaga', 'MIK', 'Magic City Casino Fronton, Miami', 'Florida'),
    t('Asier / Otxoa', 'ASI', 'Magic City Casino Fronton, Miami', 'Florida'),
  ],
  gsoc: [
    t('Team Gushue', 'Gushue', "St. John's Curling Club, St. John's", 'Newfoundland and Labrador'),
    t('Team Mouat', 'Mouat', 'Gogar Park Curling Club, Edinburgh', 'Scotland'),
    t('Team Edin', 'Edin', 'Karlstads Curlingklubb, Karlstad', 'Sweden'),
    t('Team Retornaz', 'Retornaz', 'Curling Club Cortina, Cortina d’Ampezzo', 'Italy'),
    t('Team Dunstone', 'Dunstone', 'Highlands Curling Club, Winnipeg', 'Manitoba'),
    t('Team Bottcher', 'Bottcher', 'Saville Community Sports Centre, Edmonton', 'Alberta'),
    t('Team Jacobs', 'Jacobs', 'Soo Curlers Association, Sault Ste. Marie', 'Ontario'),
    t('Team Schwaller', 'Schwaller', 'Curling Club Zug, Zug', 'Switzerland'),
    t('Team McEwen', 'McEwen', 'Fort Rouge Curling Club, Winnipeg', 'Manitoba'),
    t('Team Whyte', 'Whyte', 'Stirling Curling Club, Stirling', 'Scotland'),
    t('Team Epping', 'Epping', 'Leaside Curling Club, Toronto', 'Ontario'),
    t('Team Koe', 'Koe', 'The Glencoe Club, Calgary', 'Alberta'),
  ],
  '3ice': [
    t('Team Murray', 'Murray', 'Comerica Center, Frisco', 'Texas'),
    t('Team Johnston', 'Johnston', 'Ford Ice Center, Antioch', 'Tennessee'),
    t('Team Sutter', 'Sutter', 'Fifth Third Arena, Chicago', 'Illinois'),
    t('Team Trottier', 'Trottier', 'Agganis Arena, Boston', 'Massachusetts'),
    t('Team Mullen', 'Mullen', 'Denver Coliseum, Denver', 'Colorado'),
    t('Team Carbonneau', 'Carbonneau', 'Wells Fargo Center, Philadelphia', 'Pennsylvania'),
    t('Team LeClair', 'LeClair', 'Xcel Energy Center, Saint Paul', 'Minnesota'),
    t('Team Fuhr', 'Fuhr', 'Rogers Place, Edmonton', 'Alberta'),
  ],
};

/** Team colours for team-rotation weeks (Athletes Unlimited style). */
export const ROTATION_COLOURS = ['Gold', 'Blue', 'Orange', 'Purple'] as const;

export interface RiderTeamSeed {
  name: string;
  shortName: string;
}

/**
 * Teams of individual-athlete competitions whose heats may be team games (bull riding): the riders
 * ride for these in team events, and the teams are listed with the competition's athletes.
 */
export const RIDER_TEAMS: Readonly<Record<string, readonly RiderTeamSeed[]>> = {
  pbr: [
    { name: 'Austin Gamblers', shortName: 'AUS' },
    { name: 'Nashville Stampede', shortName: 'NSH' },
    { name: 'Oklahoma Freedom', shortName: 'OKC' },
    { name: 'Texas Rattlers', shortName: 'TEX' },
    { name: 'Arizona Ridge Riders', shortName: 'ARZ' },
    { name: 'Kansas City Outlaws', shortName: 'KC' },
    { name: 'Carolina Cowboys', shortName: 'CAR' },
    { name: 'Missouri Thunder', shortName: 'MO' },
    { name: 'Florida Freedom', shortName: 'FLA' },
    { name: 'New York Mavericks', shortName: 'NY' },
  ],
};
