"""Word families for the clue checker: what a word is made of, read morphologically rather than by shared letters.

Rules §1 "Invalid clues" refuse a part of a visible compound (the Romanian rules' MICROUNDE: micro, unde, microscop,
unduire; but microb and tunde are fine) and a word of the same family (the French rules' ENCHANTER/CHANTEUR, ROUE/
ROUAGE). Letters in common are no reason: *chat* is no part of CHÂTEAU, nor *ring* of STRING, nor *casă* of CASTEL.
So a word is taken apart only where what is left is a word, a known prefix or a known suffix:

- ``roots``: the word without a known prefix, when the rest is a word (enchanter -> chanter, unhappy -> happy);
- ``parts``: the members of a compound: hyphenated (arc-en-ciel -> arc, ciel), or closed when both sides are words of
  the lemma table (Fahrrad -> fahr + rad, horseshoe -> horse + shoe, microunde -> micro + unde); a 3-letter member
  counts when the other has 4 letters or more (Rad in FAHRRAD, sun in SUNFLOWER, tea in TEASPOON);
- ``bases``: what a derived word is built on, once a derivational suffix and its inflection are taken off
  (chanteur -> chant, rouage -> rou, gattino -> gatt, ploios -> ploi, Sänger -> sang -> sing by German Ablaut);
- ``cores``: the forms a base of the family may take in a word (its stem, the word without its final vowel, the
  Romanian oa/o and ea/e and the Italian uo/o alternations, the German Ablaut series: singen/Gesang/Sänger).

Two tables say where the letters lie (``LOOKALIKES``): words that look derived or compound but are words of their own
(château is no chat + -eau, baguette no bague + -ette, mulino no mulo + -ino, sparrow no spar + row). They were
written while reviewing the corpora of tests/data/clues (see docs/rules.md) and the packs; a custom pack's look-alike
missing from them is refused, the safe side for a clue check.

No packaged compound splitter fits (tools/…, docs/rules.md): ``compound-split``/``charsplit`` and ``german-nouns`` are
German (and Dutch) only, ``wikdict-compound`` needs a WikDict database downloaded and built per language (CC BY-SA,
hundreds of MB), ``compound-word-splitter`` needs the enchant C library. This module uses the lemma table the
checker loads anyway (simplemma, ``engine.lemmas``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from . import lemmas
from .folding import normalize
from .languages import REGISTRY
from .snowball import stemmer as snowball_stemmer

#: Prefixes a derived word may start with (lower case, with accents), longest tried first.
PREFIXES: dict[str, tuple[str, ...]] = {
    "fr": ("contre", "entre", "trans", "super", "sous", "anti", "para", "dés", "des", "dé", "de", "ré", "re", "en",
           "em", "in", "im", "ir", "il", "dis", "mé", "pré", "sur", "ex", "co", "ef", "r"),
    "en": ("under", "super", "inter", "trans", "over", "fore", "anti", "out", "dis", "mis", "non", "pre", "sub",
           "un", "re", "de", "in", "im", "en", "em", "up", "be", "co"),
    "ro": ("contra", "supra", "anti", "stră", "răs", "des", "dez", "pre", "sub", "ne", "re", "în", "îm", "de"),
    "de": ("durch", "unter", "über", "nach", "miss", "ver", "ent", "zer", "vor", "aus", "ein", "auf", "mit", "un",
           "be", "er", "an", "ab", "zu", "um", "ge"),
    "it": ("contro", "sovra", "sopra", "sotto", "anti", "stra", "tras", "dis", "pre", "ri", "re", "in", "im", "de",
           "at", "ac", "s"),
}

#: Combining forms that make compounds without being words themselves (MICROUNDE = micro + unde).
COMBINING: tuple[str, ...] = (
    "micro", "macro", "mini", "maxi", "tele", "télé", "auto", "foto", "photo", "radio", "aero", "aéro", "hydro",
    "hidro", "bio", "geo", "géo", "eco", "éco", "electro", "électro", "super", "hyper", "ultra", "multi", "poly",
    "mono", "semi", "demi", "inter", "extra", "pseudo", "termo", "thermo", "video", "vidéo", "moto",
)

#: French and Italian heads of closed compounds (portefeuille, parapluie, girasole, asciugamano): verbs and
#: prepositions that make nouns; other closed words are not split (château is not chat + eau).
_ROMANCE_HEADS: dict[str, tuple[str, ...]] = {
    "fr": ("porte", "garde", "tourne", "couvre", "passe", "pare", "para", "contre", "entre", "pour", "sous", "tire",
           "casse", "coupe", "lave", "ouvre", "gratte", "presse", "serre", "chauffe", "essuie", "bon", "mille",
           "auto", "grand"),
    "it": ("porta", "para", "gira", "asciuga", "apri", "cava", "gratta", "lava", "spazza", "salva", "batti",
           "passa", "capo", "mezzo", "ferro", "pesce", "madre", "franco", "gentil", "banco", "piano", "arco",
           "terre", "auto", "cavalca", "aero", "pomo", "mezza", "lava"),
}

#: Romanian heads of closed compounds with a short or bound member (contrabas, triunghi, binevoitor, preaplin).
_RO_HEADS = frozenset(("contra", "tri", "bine", "rău", "prea", "supra", "auto", "aero", "micro", "radio"))

#: Small words inside hyphenated compounds that are no members (arc-en-ciel: arc, ciel).
_LINKS = frozenset(("en", "de", "du", "des", "la", "le", "les", "à", "au", "aux", "of", "the", "in", "on", "a",
                    "di", "del", "della", "da", "al", "dei", "lui", "cu", "și", "pe", "la", "von", "zu", "und",
                    "der", "die", "das", "dracului"))

#: Derivational suffixes (lower case, accents kept), each possibly followed by an ending of ``ENDINGS``.
SUFFIXES: dict[str, tuple[str, ...]] = {
    "fr": ("age", "eur", "euse", "ier", "ière", "ette", "et", "on", "ment", "ée", "erie", "iste", "isme", "able",
           "ure", "ant", "ine", "elle", "eau", "ceau", "teau", "ard", "ade", "esse", "ien", "ienne", "eux",
           "aire", "oir", "oire", "ais", "aison", "ation", "ot", "otte", "ille", "illon", "aille", "asse", "ise",
           "ateur", "atrice", "ique", "al", "ale", "at", "ain", "ite", "eté", "ité", "ence", "ance", "esque", "ière",
           "onnier", "onnière", "eteau", "icule", "elet", "elette", "onnet", "ois", "oise", "ier", "ement", "er",
           "ir", "ée", "eron", "erie", "ailler", "iller", "oyer", "ifier", "iser", "ette", "eteur", "ien", "ure",
           "oir", "eux", "ie", "ière", "ateur", "ature", "aire", "eresse", "esse", "ois", "ure", "tier", "tière",
           "ial", "iale", "ion", "eton"),
    "en": ("er", "ers", "ing", "ings", "ness", "ment", "ful", "less", "able", "ish", "ist", "ism", "ery", "ly",
           "ed", "ion", "ster", "let", "ling", "y", "ie", "en", "hood", "ship", "dom", "th", "ie", "ee", "or",
           "some", "ward"),
    "ro": ("ar", "ară", "arie", "ărie", "ime", "tor", "toare", "ător", "ătoare", "itor", "itoare", "ire", "are",
           "ut", "uță", "ușă", "iță", "ică", "icică", "el", "ie", "esc", "ească", "ist", "istă", "os", "oasă",
           "aș", "ușor", "ișor", "uleț", "eț", "ețe", "ean", "eancă", "easă", "eală", "iu", "ie", "at", "it",
           "ărit", "oaică", "ăreasă", "ăreață", "ăriță", "ău", "ie", "ier", "ică", "ărică",
           "ăreț", "ărie", "iș", "ețel", "oi", "oaie", "ură", "ătură", "ătorie", "ornic", "șor", "șoară",
           "ușcă", "ior", "ită", "uire", "uliță", "niță", "or", "oare"),
    "de": ("er", "erin", "ung", "chen", "lein", "heit", "keit", "schaft", "isch", "erei", "ei", "in", "ling",
           "nis", "ig", "lich", "ern", "en", "t", "e", "el", "ler", "ner", "tum", "sam", "bar", "haft", "zeug",
           "essin", "ner", "ling"),
    "it": ("ino", "ina", "ini", "ine", "etto", "etta", "ello", "ella", "one", "ona", "accio", "accia", "uccio",
           "uccia", "otto", "otta", "olino", "olina", "icino", "icina", "acchiotto", "upola", "aio", "aia",
           "iere", "iera", "ista", "ata", "ato", "tore", "trice", "eria", "ezza", "mento", "zione", "oso", "osa",
           "ante", "ente", "ale", "are", "ere", "ire", "iera", "iere", "ile", "etto", "eto", "uto", "ura", "izia",
           "evole", "ia", "ano", "ana", "iolo", "aiolo", "ese", "igno", "ognolo", "iccio", "ucolo", "attolo",
           "iciattolo", "ellino", "erello", "iglia", "ume", "ame", "ite", "ità", "essa", "iolino", "oncino",
           "itura", "ettiere", "etteria", "atore", "atrice", "erino", "erina", "idore", "icare", "eggiato", "amenta",
           "oleria", "era", "evole", "ore", "aiolo", "eria", "ificio", "astro", "eno", "estre", "aneo"),
}

#: Inflectional endings after a suffix (chanteuses = chant + euse + s; Romanian articles: căsuța, căsuțele).
ENDINGS: dict[str, tuple[str, ...]] = {
    "fr": ("", "s", "e", "es", "x"),
    "en": ("", "s", "es", "d"),
    "ro": ("", "a", "e", "i", "ul", "le", "lui", "ii", "ele", "ile", "ul", "uri"),
    "de": ("", "e", "en", "n", "s", "es", "er", "nen", "innen"),
    "it": ("", "i", "e", "a", "o"),
}

#: German Ablaut series: the vowel forms one family takes (singen, sang, Gesang, Sänger; fliegen, Flug, Flugzeug).
#: Folded (umlauts dropped, ß -> ss), the first one names the series. Only derivations a player sees; a noun that
#: merely shares a preterite's letters (Schwamm, a sponge; schwamm, swam) is not listed.
ABLAUT: dict[str, tuple[tuple[str, ...], ...]] = {
    "de": (
        ("sing", "sang", "sung"), ("flieg", "flug", "flog"), ("fahr", "fuhr"), ("trink", "trank", "trunk"),
        ("spring", "sprung", "sprang"), ("brech", "bruch", "brach"), ("sprech", "sprach", "spruch"),
        ("schreib", "schrift", "schrieb"), ("schiess", "schuss", "schutz", "schoss"),
        ("fliess", "fluss", "floss"), ("werf", "wurf", "warf"), ("find", "fund", "fand"), ("schneid", "schnitt"),
        ("greif", "griff"), ("beiss", "biss"), ("zieh", "zug", "zog"), ("bind", "bund"), ("geh", "gang"),
        ("schliess", "schluss", "schloss"), ("jag", "jagd"), ("hoch", "hoh"), ("flieh", "flucht"),
        ("komm", "kunft"), ("bau", "baud"),
    ),
    # English strong verbs and the nouns of their vowel (sing, sang, sung, song; fly, flew, flight)
    "en": (
        ("sing", "sang", "sung", "song"), ("fly", "flew", "flown", "flight"), ("break", "broke", "broken"),
        ("speak", "spoke", "spoken", "speech"), ("think", "thought"), ("freeze", "froze", "frozen"),
        ("steal", "stole", "stolen"), ("ride", "rode", "ridden"), ("write", "wrote", "written"),
        ("drive", "drove", "driven"), ("fall", "fell", "fallen"), ("swim", "swam", "swum"), ("run", "ran"),
        ("grow", "grew", "grown", "growth"), ("sell", "sold", "sale"), ("tell", "told", "tale"),
        ("feed", "fed", "food"), ("bleed", "bled", "blood"), ("lose", "lost", "loss"), ("give", "gave", "gift"),
        ("bind", "bound", "band"), ("shoot", "shot"), ("hang", "hung"),
    ),
}

#: Look-alikes: words (folded) that are not what their letters suggest. ``underived``: no suffix to take off
#: (château is not chat + -eau); ``uncompounded``: not a compound (sparrow); ``unrelated``: pairs of words with
#: one stem or a shared base that are two words (pesco, a peach tree, and pesce; Eis and Eisen).
LOOKALIKES: dict[str, dict[str, frozenset[str]]] = {
    "fr": {
        "underived": frozenset((
            "bagage", "baguette", "boisson", "boucher", "bouchon", "bouee", "bouleau", "boutique", "bouton",
            "carotte", "chamois", "chateau", "chouette", "clochard", "colline", "coton", "courage", "couteau",
            "dragee", "lacet", "mainate", "maison", "maree", "marmite", "marmotte", "marteau", "mouchoir",
            "mouette", "papier", "papillon", "peuplier", "pilote", "pinceau", "planete", "poireau", "poison",
            "poisson", "poteau", "pucelle", "ramage", "rateau", "reinette", "rosee", "sortie", "sourire",
            "tetine", "visage",
        )),
        "uncompounded": frozenset((
            "chateau", "tirelire",
        )),
        "unrelated": frozenset((
            "autocar carriere", "bateau baton", "bison bisou", "bouche boucher", "chameau chamois",
            "chapeau chapelle", "cheminee chemise", "cheval cheville", "cle monocle", "cousine usine",
            "craie crayon", "desert serveur", "dragee dragon", "entonnoir tonneau", "faucille faucon", "feu feuille",
            "fil fils", "fou fouet", "gaz gazelle", "grenade grenier", "impasse passoire", "mot moteur",
            "moutarde mouton", "parachute parrain", "parasol parrain", "placard plaque", "puce pucelle",
            "radiateur radio", "rate raton", "robe robot", "television vis", "violette violon", "vol volet",
        )),
    },
    "en": {
        "underived": frozenset((
            "belly", "buddy", "bunny", "corner", "earth", "hammer", "hamster", "legend", "moped", "mother",
            "vanish",
        )),
        "uncompounded": frozenset((
            "million", "hammock", "barracks", "barbecue", "caramel", "caravan", "leather", "panther",
            "button", "carpenter", "carpet", "hassock", "mandate", "message", "peasant", "pension", "plumber",
            "portion", "postage", "rosemary", "scarlet", "season", "sparrow", "tapestry", "target", "thousand",
        )),
        "unrelated": frozenset((
            "bat battery", "concrete console", "hole holly", "jackpot potion", "motorbike remote", "motorway remote",
            "perfume slipper", "popcorn poppy", "port portion", "scar scarlet",
        )),
    },
    "de": {
        "underived": frozenset((
            "armee", "bart", "essig", "buche", "bucht", "busen", "eisen", "fussel", "hasel", "kammer", "kellner",
            "kohle", "rakel", "ratte", "regent", "reise", "rosine", "rubel", "schalter", "torte",
        )),
        "uncompounded": frozenset((
            "ballast", "bettler", "bohnerwachs", "hornisse", "million", "haselnuss", "kartoffel", "lindwurm",
            "magnet", "mandel",
            "mantel", "mausoleum", "sandale", "schnecke", "schnee", "schwein", "wandern",
        )),
        "unrelated": frozenset((
            "katapult kater", "eichhornchen horn",
            "anwalt wal", "ast palast", "becher taucher", "bett bettler", "bus busen", "bus buste", "dach dachs",
            "eichhornchen einhorn", "einhorn einsiedler", "eis eisen", "falle wasserfall", "fenster hamster",
            "fenster kloster", "fenster minister", "forelle gazelle", "forelle tankstelle", "gazelle tankstelle",
            "gepard leopard", "geschenk schenkel", "hamster kloster", "hamster minister", "hebamme hebel",
            "hefe heft", "hochzeit zeitung", "hufeisen hufte", "hummel hummer", "hut hutte", "kamel kamera",
            "kamel kamin", "kamera kamin", "kamm kammer", "keller kellner", "kloster minister", "konig konsole",
            "laden schokolade", "loffel loffler", "messe messer", "nachbar nacht", "portrat quadrat", "regel regen",
            "rube rubin", "schal schale", "stein stern", "tau taucher", "wand wandern", "wein weinen",
        )),
    },
    "it": {
        "underived": frozenset((
            "autore", "avventura", "boccale", "bottone", "burrone", "campana", "canale", "cappone", "cervello",
            "collana", "collina", "cozzare", "focaccia", "galleria", "galletta", "gallone", "insolito",
            "limone", "marito", "martello", "mattone", "montone", "morale", "mulino",
            "nubile", "passerella", "pastiglia", "pastore", "pennello", "pizzico", "polpaccio", "ricchezza",
            "salame", "salute", "storta", "tacchino", "tappeto", "telaio", "ungheria", "vitello",
        )),
        "uncompounded": frozenset(),
        "unrelated": frozenset((
            "avventura vento", "bambino bambu", "bar barattolo", "bar barile", "bar barone", "cintura recinto",
            "colino colore", "colino monocolo", "colore monocolo", "cozza cozzare", "domatore domino",
            "fagiano fagiolo", "fortezza pianoforte", "insolito sole", "intestino testa", "leggenda letto",
            "lettera letto", "letto lettura", "libra libro", "mare marito", "mascella maschera", "mosca moscato",
            "pagaia spago", "pagina spago", "pesce pesco", "pizza pizzico", "pizza pizzo", "pugno spugna",
            "quadro squadra", "ritratto trattore", "rondella rondine", "sale salute", "stampante stampella",
            "storta torta", "torrente torrone",
        )),
    },
    "ro": {
        "underived": frozenset((
            "cartier", "cartof", "caseta", "casier", "castel", "lacat", "mania", "manie", "marar", "martor",
            "ursita", "zmeura",
        )),
        "uncompounded": frozenset((
            "parasuta",
        )),
        "unrelated": frozenset((
            "casa castor", "carte cartita", "mana maneca", "pasaport pasare", "plan planeta", "plan planor",
            "aeroport pasaport", "aeroport portar", "autocar cariera", "autocar caruta", "bariera debara",
            "bat batista", "bila bilet", "bondar bondita", "caiac caisa", "caiet caisa", "cal calator", "cal calau",
            "calator calau", "cap capela", "cap capusa", "capela capusa", "car cariera", "carnat carnet",
            "cartof cartofor", "ceata cetate", "cer petrecere", "creier cresa", "creier creșa", "cutie cutit",
            "far faras", "gat gata", "gaz gazela", "hot hotel", "imparat par", "lingou lingura", "mustar mustata",
            "nor noroi", "par parau", "pasaport portar", "pat patura", "perete periscop", "planeta planor",
            "pod podis", "primar primavara", "radar ras", "radiera ras", "rege regim", "sal salata", "sos soseta",
            "suc sucitor", "telecomanda telemea", "telemea televizor", "termita termometru", "toc tocanita",
            "toc tocator", "tocanita tocator", "triunghi unghie", "tun tunel", "tun tunet", "urs ursita",
            "urs ursitoare", "val valet", "vita vitel",
        )),
    },
}

_DOUBLED_A = frozenset(lang.code for lang in REGISTRY if lang.doubled_a)
_UNDOUBLES = frozenset(lang.code for lang in REGISTRY if lang.undoubles)
_ROMANCE = frozenset(lang.code for lang in REGISTRY if lang.romance)
MIN_ROOT = 4  # letters left after a prefix
MIN_MEMBER = 3  # letters of a compound's member (the other one then needs MIN_ROOT)
MIN_BASE = 3  # letters of a base under a suffix


def _lookalike(kind: str, word: str, language: str) -> bool:
    return word in LOOKALIKES.get(language, {}).get(kind, frozenset())


def unrelated(a: str, b: str, language: str) -> bool:
    """True when the folded words ``a`` and ``b`` are listed as two words that only look like one family."""
    table = LOOKALIKES.get(language, {}).get("unrelated", frozenset())
    return f"{a} {b}" in table or f"{b} {a}" in table


def known(word: str, language: str) -> bool:
    """True when ``word`` is a word of ``language`` for the checker: the lemma table's, or a bundled pack's."""
    return _known(word, language)


def _known(word: str, language: str) -> bool:
    # German nouns are capitalised in the table: ask both readings, as for a word typed in capitals. The table
    # misses some common lemmas (Italian lavoro, perla): the bundled pack's words are known words too.
    return lemmas.known(word.upper() if language == "de" else word, language) or normalize(word) in _pack(language)


#: A compound's member is a common word: among this many most frequent words of the language (the whole list).
MEMBER_RANK = 50_000


@cache
def ranks(language: str) -> dict[str, int]:
    """Folded word -> frequency rank (0 = most frequent) from engine/data/frequency/<lang>.txt.gz; {} if absent."""
    import gzip
    from importlib import resources

    try:
        data = resources.files("engine").joinpath("data", "frequency", f"{language}.txt.gz").read_bytes()
    except (FileNotFoundError, OSError):
        return {}
    found: dict[str, int] = {}
    for rank, word in enumerate(gzip.decompress(data).decode("utf-8").split()):
        found.setdefault(normalize(word), rank)
    return found


def _common(piece: str, language: str) -> bool:
    """A member may be a common word in its dictionary form, a combining form, or a word of the bundled pack: not
    an inflected form (bar + racks) nor a rare string the lemma table happens to list (bar + becue)."""
    folded = normalize(piece)
    if piece in COMBINING or folded in _pack(language):
        return True
    table = ranks(language)
    if table and table.get(folded, MEMBER_RANK) >= MEMBER_RANK:
        return False
    if language != "en":
        return True  # Romance compounds take plural members (portachiavi, cavatappi, porte-clés)
    found = lemmas.lemmas(piece, language)
    return not found or piece.casefold() in found or lemmas.is_lemma(piece, language)


@cache
def _pack(language: str) -> frozenset[str]:
    """The folded words of ``language``'s bundled main pack (read directly: engine.words imports the checker)."""
    from importlib import resources

    try:
        text = resources.files("engine").joinpath("data", "words", f"{language}.txt").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return frozenset()
    return frozenset(normalize(line.split("#")[0]) for line in text.splitlines() if line.split("#")[0].strip())


@cache
def _stemmer(language: str) -> Callable[[str], str]:
    algorithm = {lang.code: lang.stemmer for lang in REGISTRY}[language]
    stemmer = snowball_stemmer(algorithm)

    @cache
    def stem(word: str) -> str:
        return normalize(str(stemmer.stemWord(word)))

    return stem


def stem(raw: str, language: str) -> str:
    """The Snowball stem of ``raw`` (lower case, accents kept), folded."""
    return _stemmer(language)(raw)


@cache
def _suffix_table(language: str) -> tuple[tuple[str, str], ...]:
    """(suffix + ending folded, suffix folded), longest first."""
    pairs = {(normalize(s + e), normalize(s)) for s in SUFFIXES.get(language, ()) for e in ENDINGS.get(language, ())}
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


@cache
def _suffix_index(language: str) -> tuple[dict[str, tuple[str, ...]], tuple[int, ...]]:
    """``_suffix_table`` by ending (suffix + ending folded -> its suffixes), and the endings' lengths (no empty)."""
    index: dict[str, list[str]] = {}
    for ending, suffix in _suffix_table(language):
        if ending:
            index.setdefault(ending, []).append(suffix)
    return {k: tuple(v) for k, v in index.items()}, tuple(sorted({len(k) for k in index}, reverse=True))


@cache
def _ablaut(language: str) -> dict[str, str]:
    return {form: series[0] for series in ABLAUT.get(language, ()) for form in series}


_CIRCUMFLEX = str.maketrans({"ê": "es", "ô": "os", "â": "as", "î": "is", "û": "us"})


def _raw_skeletons(raw: str, language: str) -> set[str]:
    """Alternations read on the word as written, before folding drops the letters that tell them (folded)."""
    found = set()
    if language == "fr":
        # the circumflex of a lost s (forêt / forestier, fête / festin, hôpital / hospitalier)
        spelled = raw.translate(_CIRCUMFLEX)
        if spelled != raw:
            found.add(normalize(spelled))
    if language == "ro":
        found.add(normalize(raw.replace("ă", "e")))  # măr / merișor, fată / fetiță
        if "ște" in raw:
            found.add(normalize(raw.replace("ște", "sce")))  # pește / pescar
    return found


def _skeletons(word: str, language: str) -> set[str]:
    """The word with its family's vowel alternations undone (folded): ro oa/o, ea/e, ie/e; it uo/o, ie/e; fr
    eau/el (marteau / marteler, chapeau / chapelier), que/c (musique / musicien, barque / embarcation)."""
    found = {word}
    if language == "fr":
        if word.endswith("eau") or word.endswith("eaux"):
            found.add(word[: word.rindex("eau")] + "el")
        if word.endswith("que") or word.endswith("ques"):
            found.add(word[: word.rindex("que")] + "c")
    if language == "ro":
        found.add(word.replace("oa", "o").replace("ea", "e"))
        if word.endswith("aie"):
            found.add(word[:-3] + "ai")  # ploaie -> ploai -> ploi
            found.add(word.replace("oa", "o")[:-3] + "i")
        if word.endswith("ea") and len(word) >= 4:
            found.add(word[:-1] + "l")  # stea / stele, steluță
        found.add(word.replace("ia", "ie"))  # piatră / pietros, băiat / băiețel
    elif language == "it":
        found.add(word.replace("uo", "o").replace("ie", "e"))
    elif language == "de":
        for ending in ("el", "en", "er"):
            if word.endswith(ending) and len(word) > 4:
                found.add(word[:-2] + word[-1])  # Nebel -> nebl (neblig), Regen -> regn (regnen)
    return found


def _unvowelled(word: str) -> set[str]:
    """The word and the word without its final vowel (casa -> cas, gatto -> gatt, floare -> floar; one vowel only:
    cheveu is no chev-, statue no stat-)."""
    found = {word}
    if word[-1:] in ("a", "e", "i", "o", "u") and len(word) > MIN_BASE:
        found.add(word[:-1])
    return found


@cache
def cores(raw: str, language: str) -> frozenset[str]:
    """Folded forms a family's base takes in ``raw``: its stem, itself without final vowels, its skeletons, and the
    German Ablaut series it belongs to ("@sing" for singen, sang; "@flieg" for Flug)."""
    folded = normalize(raw)
    found: set[str] = {stem(raw, language)}
    for skeleton in _skeletons(folded, language) | set().union(
            *(_skeletons(w, language) for w in _raw_skeletons(raw, language))):
        found |= _unvowelled(skeleton)
        found.add(stem(skeleton, language) if language != "de" else skeleton)
    for word in list(found) + [folded]:
        found |= _ablauted(word, language)
    if language == "de" and (folded.endswith("en") or folded.endswith("ern")):
        found.add(folded[:-2])  # an infinitive: singen -> sing
    return frozenset(f for f in found if len(f) >= MIN_BASE or f.startswith("@"))


def _ablauted(word: str, language: str) -> set[str]:
    """"@series" when ``word`` (folded) is a form of an Ablaut series, with a derivational ending after it."""
    table = _ablaut(language)
    if not table:
        return set()
    tails = _ABLAUT_TAILS if language == "de" else _EN_TAILS
    # the word is a form, or a form and one of the tails: look up what is left with each tail taken off (a
    # few look-ups instead of a pass over every form)
    words = (word, word[2:]) if language == "de" and word.startswith("ge") else (word,)  # Gesang, Getränk, Gebiss
    found = set()
    for spelled in words:
        for tail in tails:
            if spelled.endswith(tail):
                series = table.get(spelled[: len(spelled) - len(tail)])
                if series is not None:
                    found.add("@" + series)
    return found


_EN_TAILS = frozenset(("", "s", "er", "ers", "ing", "y"))
_ABLAUT_TAILS = frozenset(("", "e", "en", "er", "erin", "el", "zeug", "t", "s", "es", "ung", "ling", "ig", "lich",
                           "haft", "n", "ern", "ers"))


@cache
def bases(raw: str, language: str) -> frozenset[str]:
    """Folded bases ``raw`` is derived from by a suffix (chanteur -> chant; gattini -> gatt; Sänger -> sang, @sing),
    with a doubled consonant undone (runner -> run). Empty for a listed look-alike (château, baguette)."""
    folded = normalize(raw)
    if _lookalike("underived", folded, language):
        return frozenset()
    found: set[str] = set()
    endings, lengths = _suffix_index(language)
    for skeleton in _skeletons(folded, language):
        found |= _feminine(skeleton, language)
        for n in lengths:  # each ending the skeleton has, by its length, instead of every pair of the table
            if n > len(skeleton):
                continue
            for suffix in endings.get(skeleton[len(skeleton) - n:], ()):
                least = MIN_ROOT if len(suffix) <= 1 else MIN_BASE  # Käse is no kas + -e, nor Fahrt a fah + -t
                if len(skeleton) - n >= least:
                    found |= _base_variants(skeleton[: len(skeleton) - n], language)
    if language == "fr":
        for participle in ("é", "ée", "és", "ées"):
            if raw.endswith(participle) and len(raw) - len(participle) >= MIN_BASE:
                found.add(normalize(raw[: len(raw) - len(participle)]))  # boisé -> bois, doré -> dor
    found |= _unprefixed(found, language)
    for base in list(found) + [folded]:
        found |= _ablauted(base, language)
    return frozenset(found)


def _feminine(word: str, language: str) -> set[str]:
    """French feminines after a doubled consonant: chatte -> chat, chienne -> chien, lionne -> lion."""
    if language != "fr" or len(word) <= MIN_BASE + 2:
        return set()
    body = word[:-2] if word.endswith("es") else word[:-1] if word.endswith("e") else ""
    if len(body) > MIN_BASE and body[-1] == body[-2] and body[-1] not in "aeiou":
        return {body[:-1]}
    return set()


def _base_variants(base: str, language: str) -> set[str]:
    """A base and the spellings its word has alone: runner -> run, barchetta -> barc(a), porcherie -> porc,
    soyeux -> soi(e)."""
    found = {base}
    if language in _UNDOUBLES and len(base) > MIN_BASE and base[-1] == base[-2] and base[-1] not in "aeiou":
        found.add("=" + base[:-1])  # only the word itself, as written (run, not hole: holly is no hole + y)
    if (language == "it" and base.endswith(("ch", "gh"))) or (language == "fr" and base.endswith("ch")):
        found.add(base[:-1])
    if language == "fr" and base.endswith("y"):
        found.add(base[:-1] + "i")
    return found


def _unprefixed(found: set[str], language: str) -> set[str]:
    """Romance bases under a prefix: imbarcare -> imbarc -> barc; înnorat -> înnor -> nor. Italian s- needs a
    4-letter rest (sbarcare -> barc(a), but not sperare -> per(a))."""
    if language not in _ROMANCE:
        return set()
    more = set()
    for base in found:
        for prefix in PREFIXES.get(language, ()):
            rest = normalize(prefix)
            least = MIN_BASE if len(rest) > 1 else MIN_ROOT
            if (len(rest) > 1 or language == "it") and base.startswith(rest) and len(base) - len(rest) >= least:
                more.add(base[len(rest):])
    return more


@cache
def roots(raw: str, language: str) -> tuple[str, ...]:
    """Folded remainders of ``raw`` (lower case, accents kept) after each known prefix, when they are words."""
    if not raw.isalpha():
        return ()
    found: list[str] = []
    for prefix in PREFIXES.get(language, ()):
        rest = raw[len(prefix):]
        if raw.startswith(prefix) and len(rest) >= MIN_ROOT and _known(rest, language):
            found.append(normalize(rest))
    # French and Italian a- before a doubled consonant (accrocher -> crocher, appendere -> pendere)
    if language in _DOUBLED_A and len(raw) > MIN_ROOT + 2 and raw[0] == "a" and raw[1] == raw[2] \
            and raw[1] not in "aeiouy" and _known(raw[2:], language):
        found.append(normalize(raw[2:]))
    return tuple(dict.fromkeys(found))


@cache
def parts(raw: str, language: str) -> tuple[str, ...]:
    """Folded members of ``raw`` read as a compound (hyphenated, or closed of two words or a combining form and a
    word); () if it is none."""
    raw = raw.strip()
    if "-" in raw or " " in raw:
        pieces = [p for p in raw.replace(" ", "-").split("-") if p]
        members = [normalize(p) for p in pieces if p.casefold() not in _LINKS and len(p) >= MIN_MEMBER]
        return tuple(dict.fromkeys(members)) if len(pieces) > 1 else ()
    if not raw.isalpha() or _lookalike("uncompounded", normalize(raw), language):
        return ()
    if language == "de" and _known(raw, language) and not lemmas.noun(raw, language) \
            and normalize(raw) not in _pack(language):
        return ()  # German compounds are nouns (genießen, a verb the table knows, is no Genie + essen)
    split = _closed(raw, language)
    return tuple(normalize(p) for p in split) if split else ()


def _closed(raw: str, language: str) -> tuple[str, str] | None:
    """The best split of a closed compound: both members of 4 letters or more before a 3-letter one, then the
    longest head (police + man, not pol + iceman)."""
    if len(raw) < MIN_MEMBER + MIN_ROOT - (1 if language == "de" else 0):
        return None
    found: list[tuple[str, str]] = []
    for cut in range(MIN_MEMBER, len(raw) - MIN_MEMBER + 1):
        head, tail = raw[:cut], raw[cut:]
        if not _tail_ok(tail, head, language):
            continue
        if _head_ok(head, tail, language) and (_listed_head(head, language) or _member_ok(head, language)):
            found.append((head, tail))
        elif language == "de":
            found.extend(_linked(head, tail))
    if not found:
        return None
    return max(found, key=lambda split: (min(len(split[0]), len(split[1])) >= MIN_ROOT, len(split[0])))


def _linked(head: str, tail: str) -> list[tuple[str, str]]:
    """German members joined by a linking element (Arbeitszimmer, Sonnenblume, Kleiderschrank) or with a dropped
    -e (Pfannkuchen: Pfanne)."""
    found = []
    for link in ("s", "n", "en", "er", "e", "es"):
        stripped = head[: len(head) - len(link)]
        if head.endswith(link) and len(stripped) >= MIN_MEMBER and _known(stripped, "de") \
                and _member_ok(stripped, "de"):
            found.append((stripped, tail))
    for dropped in ("e", "n", "en"):  # Erdbeere (Erde), Osterhase (Ostern), Pfannkuchen (Pfanne)
        if not found and len(head) >= MIN_MEMBER and lemmas.noun(head + dropped, "de"):
            found.append((head + dropped, tail))
    return found


#: German nouns of three letters that make compounds (Fahrrad, Eisbär, Seestern); other 3-letter pieces are not
#: taken for members (schnei + der, Mill + ion, Kor + ken).
_DE_SHORT = frozenset(("rad", "eis", "see", "tee", "tor", "hut", "ohr", "zug", "bus", "ski", "ast", "bad", "bar",
                       "heu", "hof", "huf", "kuh", "mus", "ort", "rat", "reh", "sau", "tag", "tal", "tau", "tur",
                       "uhr", "weg", "zoo", "arm", "bau", "fee", "gas", "hai", "kai", "los", "mai", "not", "pol",
                       "ruf", "tat", "ton", "wal", "gut", "dom", "eck", "ei"))


def _member_ok(piece: str, language: str) -> bool:
    folded = normalize(piece)
    if piece not in COMBINING and folded in {normalize(x) for x in SUFFIXES.get(language, ())}:
        return False  # -age, -ion, -ant, -let: a suffix, not a member (village, station, pendant, bracelet)
    if language != "de":
        return _common(piece, language)
    if normalize(piece) in {normalize(p) for p in PREFIXES["de"]}:
        return False  # vor-, aus-: a prefix, not a member (Vorhang, Vorfahren)
    return len(folded) >= MIN_ROOT or folded in _DE_SHORT


def _listed_head(head: str, language: str) -> bool:
    return head in COMBINING or head in _ROMANCE_HEADS.get(language, ()) or (language == "ro" and head in _RO_HEADS)


def _tail_ok(tail: str, head: str, language: str) -> bool:
    if language == "de":
        # a German compound ends in a noun
        return _member_ok(tail, language) and tail not in SUFFIXES["de"] and lemmas.noun(tail, language)
    if len(tail) < MIN_ROOT and len(head) < MIN_ROOT:
        return False
    return _member_ok(tail, language) and _known(tail, language)


def _head_ok(head: str, tail: str, language: str) -> bool:
    if head in COMBINING:
        return True
    if language in _ROMANCE_HEADS:
        return head in _ROMANCE_HEADS[language]
    if language == "ro":
        return head in _RO_HEADS  # contrabas, triunghi, binevoitor, preaplin; legătură is no lega + tură
    if language == "en" and len(head) < MIN_ROOT and len(tail) < MIN_ROOT:
        return False  # carpet is no car + pet, nor season sea + son
    return _known(head, language)
