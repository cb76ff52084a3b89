/**
 * Teams for the demo generator: the team sports' pools, the rotation league's colours and the bull
 * riders' teams. Real-sounding, so that the demo reads plausibly. Data, read top to bottom.
 */

export interface TeamSeed {
  name: string;
  shortName: string;
  /** Home venue, published as eventLocation for home games. */
  venue: string;
  group: string;
}

const t = (name: string, shortName: string, venue: string, group: string): TeamSeed => ({
  name,
  shortName,
  venue,
  group,
});

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
