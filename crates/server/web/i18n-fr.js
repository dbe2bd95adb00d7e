/* Every visible string of the web client in French (fr): an ES module
   whose default export maps each key to its text. One file per language, so
   a page downloads only the language in use (i18n.js imports it before the
   page starts, and the other one on a language switch).

   One key a line, grouped by the page that shows it, in the same order in
   every language, so the three files read side by side. Card and role names
   follow the rulebooks. A value is a string with {name} placeholders, an
   object of plural forms ({one, other}, chosen with Intl.PluralRules by
   vars.n or by the variable its `n` names), or an array (rank names, rules).
   A long text is written as pieces joined with +. Game events are rendered
   from the `ev.GAME.KIND` templates by words.js. No text names a bot
   level's number: the lobby counts it from the ladder (`bot.level`).

   A Rust test (crates/server/tests/it/i18n.rs) fails when a kind lacks a
   template in some language, a template names a field its event does not
   have, or the languages' key sets differ. */

export default {
  /* Every page: languages, games, the connection, errors */
  'lang.en': 'English',
  'lang.it': 'Italiano',
  'lang.fr': 'Français',
  'game.bigcheese': 'The Big Cheese (le Grand Fromage)',
  'game.dalmuti': 'Le Grand Dalmuti',
  'about.bigcheese': 'The Big Cheese : les rats enchérissent avec leurs sous-fifres sur des projets, et un projet paie son patron aux dés quand ses sous-fifres s\'en vont ; le premier au score visé gagne.',
  'about.dalmuti': 'Le Grand Dalmuti : une échelle sociale du Grand Dalmuti au Grand Péon ; videz votre main le premier, en battant chaque groupe par autant de cartes d\'un meilleur rang, pour y monter.',
  'nav.verify': 'Vérifier l\'équité',
  'conn.connecting': 'connexion…',
  'conn.live': 'connecté',
  'conn.off': 'hors ligne, reconnexion…',
  'err.bad_message': 'Le serveur n\'a pas compris le message.',
  'err.unknown_table': 'Cette table n\'existe pas.',
  'err.bad_token': 'La clé de votre place n\'est pas valable ici ; vous regardez.',
  'err.not_your_turn': 'Ce n\'est pas votre tour.',
  'err.stale': 'La table a avancé ; voici l\'état à jour. Choisissez à nouveau.',
  'err.illegal': 'Interdit par les règles',
  'err.conceded': 'Vous avez abandonné cette partie : un bot joue votre place.',
  'err.game_over': 'La partie est finie.',
  'err.rate_limited': 'Trop de messages : ralentissez.',
  'err.not_seated': 'Les spectateurs ne peuvent pas jouer.',
  'err.internal': 'Erreur du serveur ; rien n\'a changé.',
  'err.bad_input': 'Données invalides',
  'err.seat_taken': 'Cette place est déjà prise.',
  'err.not_over': 'La partie n\'est pas encore finie.',
  'err.timeout': 'La requête a pris trop de temps.',
  'err.forbidden': 'Seul le créateur de la table peut le faire.',
  'err.try_again': 'La table passe sur un autre serveur : réessayez dans un instant.',
  'err.too_large': 'Trop volumineux.',
  'err.network': 'Le serveur est injoignable.',
  'err.offline': 'Non connecté : attendez la reconnexion.',
  'err.noTable': 'Aucune table dans l\'adresse.',
  'err.unknown': 'Erreur ({code})',
  'err.busy': 'Le serveur est occupé par d\'autres analyses : réessayez dans quelques minutes.',
  'err.abandoned': 'Cette partie a été abandonnée avant la fin : elle n\'a pas d\'analyse.',

  /* The lobby: the new table form, the tables’ lists, bots and options in words */
  'lobby.title': 'Accueil',
  'lobby.intro':
    'Asseyez-vous à une table avec des amis ou des bots. Pas de compte : choisissez un nom, créez une table et ' +
    'partagez son lien.',
  'lobby.create': 'Nouvelle table',
  'lobby.game': 'Jeu',
  'lobby.players': 'Joueurs',
  'lobby.name': 'Votre nom',
  'lobby.namePh': 'nom affiché',
  'lobby.seats': 'Places',
  'lobby.you': 'vous (humain)',
  'lobby.human': 'humain (invitez un ami)',
  'lobby.options': 'Options de règles',
  'lobby.default': 'par défaut {v}',
  'lobby.go': 'Créer et s\'asseoir',
  'lobby.needName': 'Indiquez d\'abord votre nom.',
  'lobby.open': 'Tables ouvertes (places libres)',
  'lobby.live': 'Parties en cours',
  'lobby.done': 'Parties terminées',
  'lobby.none': 'Aucune pour l\'instant.',
  'lobby.nPlayers': { one: '{n} joueur', other: '{n} joueurs' },
  'lobby.free': { one: '{n} place libre', other: '{n} places libres' },
  'lobby.join': 'S\'asseoir',
  'lobby.watch': 'Regarder',
  'lobby.replay': 'Revoir',
  'lobby.result': 'Résultat',
  'lobby.back': 'Retour à votre place {seat}',
  'bot.level': 'bot niveau {n} : {bot}',
  'bot.external': 'programme bot : {name}',
  'bot.random': 'aléatoire (débutant)',
  'bot.heuristic': 'à règles (facile)',
  'bot.strong': 'heuristique forte (bon)',
  'bot.learned': 'réseau entraîné (avancé)',
  'bot.search': 'recherche (expert)',
  'val.on': 'oui',
  'val.off': 'non',
  'val.auto': 'auto',
  'val.none': 'aucun',
  'val.polyhedral': 'polyédriques (le dé de la carte)',
  'val.d6': 'un d6 × valeur',
  'val.best-of-two': 'meilleur de deux d6 × valeur',
  'val.half-of-n': 'meilleure moitié de valeur-d6 × 2',
  'val.no-dice': 'sans dés (valeur de la carte)',
  'opt.bigcheese.dice': 'Ce que rapporte un projet numéroté terminé.',
  'opt.bigcheese.specials': 'Cartes Veto et Big Cheese dans la pioche.',
  'opt.bigcheese.exact': 'Score exact : un gain qui dépasse l\'objectif est ignoré.',
  'opt.bigcheese.target': 'Score pour gagner ; auto = 40 polyédriques (30 exact), 200 avec d6, 60 sans dés.',
  'opt.bigcheese.veto': 'Quand jouer un Veto : à chaque tour, ou seulement avant votre première enchère.',
  'opt.bigcheese.final_tie':
    'Une égalité restante après score et projets : victoire partagée, ou jugement de Dieu par un dé.',
  'opt.bigcheese.chips': 'Sous-fifres de départ par joueur.',
  'opt.dalmuti.hands': 'Manches de la session ; 1 = une seule manche.',
  'opt.dalmuti.target': 'La session finit aussi en fin de manche quand quelqu\'un a ces points.',
  'opt.dalmuti.standard_deck': 'Garder les 80 cartes de 3 à 5 joueurs.',
  'opt.dalmuti.settling_hand': 'Première manche : ni impôts ni révolution.',
  'opt.dalmuti.auto_revolution': 'Jamais d\'impôts, mais une Grande Révolution inverse quand même les rôles.',
  'opt.dalmuti.benevolent_rulers': '+1 point au Dalmuti dont le Péon progresse.',
  'opt.dalmuti.the_elected': '+1 point au Grand Péon qui devient Grand Dalmuti.',
  'opt.dalmuti.market': 'Après les impôts, le premier Marchand peut échanger une carte choisie avec un Marchand.',
  'opt.dalmuti.black_market': 'Après les impôts, le premier Marchand et un Marchand se tirent une carte au hasard.',
  'opt.dalmuti.joins': 'Manches avant lesquelles un nouveau joueur arrive comme Marchand, ex. 3,5.',
  'opt.dalmuti.single_hand': 'Une seule manche : gagne qui sort le premier, ou le plus de points avec les bonus.',
  'lobby.settings': 'Réglages de la table',
  'set.public': 'Table publique',
  'set.turn_timer_ms': 'Temps par tour (s)',
  'set.bot_delay_ms': 'Attente des bots (s)',
  'set.spectator_chat': 'Chat des spectateurs',
  'setHelp.public': 'Listée ici : tout le monde peut prendre une place libre (sinon seulement qui a le lien d\'invitation).',
  'setHelp.turn_timer_ms': 'Combien de temps une personne peut prendre pour son tour, puis un bot le joue (vide : 2:00 à une table publique, aucun à une table privée).',
  'setHelp.bot_delay_ms': 'Combien de temps un bot attend avant d\'agir, pour que l\'on puisse suivre.',
  'setHelp.spectator_chat': 'Les spectateurs peuvent aussi lire et écrire dans le chat (sinon seulement les joueurs assis).',
  'lobby.defaultIs': 'par défaut : {v}',
  'lobby.source': 'Source : {s}',
  'lobby.blank': 'vide = {v}',
  'lobby.seatN': 'Place {n}',
  'val.any-turn': 'à chaque tour',
  'val.before-bid': 'seulement avant votre première enchère',
  'val.shared': 'partagée',
  'val.chance': 'tirée au dé',
  'val.first-out': 'le premier sorti',
  'val.points': 'le plus de points',
  'optName.bigcheese.dice': 'Dés de gain',
  'optName.bigcheese.specials': 'Cartes Veto et Big Cheese',
  'optName.bigcheese.exact': 'Score exact',
  'optName.bigcheese.target': 'Score pour gagner',
  'optName.bigcheese.chips': 'Sous-fifres par joueur',
  'optName.bigcheese.veto': 'Quand jouer un Veto',
  'optName.bigcheese.final_tie': 'Égalité finale',
  'optName.dalmuti.hands': 'Manches de la partie',
  'optName.dalmuti.target': 'Fin à un score',
  'optName.dalmuti.standard_deck': 'Paquet complet à 3 à 5 joueurs',
  'optName.dalmuti.settling_hand': 'Manche d\'installation',
  'optName.dalmuti.auto_revolution': 'Révolution automatique',
  'optName.dalmuti.benevolent_rulers': 'Souverains bienveillants',
  'optName.dalmuti.the_elected': 'L\'élu',
  'optName.dalmuti.market': 'Marché',
  'optName.dalmuti.black_market': 'Marché noir',
  'optName.dalmuti.joins': 'Nouveaux venus',
  'optName.dalmuti.single_hand': 'Qui gagne une manche unique',
  'src.bigcheese.dice':
    'les règles anglaises (1998, 2011) lancent le dé de la carte ; le traducteur de l\'édition française ajoute le ' +
    'meilleur de deux d6, la moitié de n d6 et sans dés',
  'src.bigcheese.specials': 'les quatre règles : facultatives, comme les jokers',
  'src.bigcheese.exact': 'les règles anglaise 1998 et italienne (à 30), anglaise 2011 (à 40)',
  'src.bigcheese.target': 'les règles anglaises et les variantes du traducteur français',
  'src.bigcheese.chips': 'les quatre règles : 10 chacun',
  'src.bigcheese.veto': 'l\'édition française : seulement avant d\'enchérir ; les autres : à chaque tour',
  'src.bigcheese.final_tie': 'l\'édition française : au hasard ; les autres : partagée',
  'src.dalmuti.hands': 'les règles officielles anglaises et Il Grande Dalmuti',
  'src.dalmuti.target': 'les règles officielles anglaises',
  'src.dalmuti.standard_deck': 'Il Grande Dalmuti retire les 12 (et les 11) à 5 (et 4) joueurs',
  'src.dalmuti.settling_hand': 'Il Grande Dalmuti, variantes',
  'src.dalmuti.auto_revolution': 'Il Grande Dalmuti, variantes',
  'src.dalmuti.benevolent_rulers': 'Il Grande Dalmuti, variantes',
  'src.dalmuti.the_elected': 'Il Grande Dalmuti, variantes',
  'src.dalmuti.market': 'Il Grande Dalmuti, variantes',
  'src.dalmuti.black_market': 'Il Grande Dalmuti, variantes',
  'src.dalmuti.joins': 'Il Grande Dalmuti : un nouveau venu entre comme marchand',
  'src.dalmuti.single_hand': 'une règle de ratrace : le livret joue des parties de plusieurs manches',
  'lobby.freeSeat': 'une place libre',
  'lobby.winner': 'gagnée par {who}',
  'lobby.nobody': 'personne n\'a gagné',
  'lobby.with': 'avec {who}',

  /* The lobby, the players’ side: my games, my identity on another device, the leaderboard */
  'board.played': 'Parties',
  'me.other': 'Jouer en tant que vous sur un autre appareil',
  'me.otherText':
    'Ouvrez ce lien sur votre autre téléphone ou ordinateur : il y devient vous, avec vos parties et votre ' +
    'classement. Quiconque a le lien joue en votre nom : gardez-le pour vous.',
  'me.takeTitle': 'Jouer en tant que le joueur de ce lien ?',
  'me.takeText':
    'Ce lien porte l’identité d’un joueur venue d’un autre appareil. Utilisez-la ici, et ce navigateur devient ce ' +
    'joueur (ses parties et son classement) ; l’identité qu’avait ce navigateur est laissée de côté.',
  'me.takeWho': 'Ce lien est l’identité de {name} ({games}).',
  'me.takeNobody':
    'Ce lien est une identité qui n’a encore joué aucune partie : personne que vous puissiez reconnaître.',
  'me.replace':
    'Ce navigateur est {name} maintenant ({games}) : utiliser le lien remplace cette identité ici. Pour la garder, ' +
    'copiez d’abord son propre lien (« Jouer en tant que vous sur un autre appareil »).',
  'me.take': 'L’utiliser ici',
  'me.keep': 'Garder la mienne',
  'mine.title': 'Mes parties',
  'mine.none': 'Pas encore de partie depuis ce navigateur.',
  'mine.live': 'en cours',
  'mine.open': 'en attente de joueurs',
  'mine.abandoned': 'abandonnée',
  'mine.you': 'vous avez joué {seat}',
  'mine.rating': 'Votre classement à {game} : {r}',
  'board.title': 'Classement',
  'board.player': 'Joueur',
  'board.rating': 'Cote',
  'board.games': { one: '{n} partie', other: '{n} parties' },
  'board.none': 'Personne n\'est encore classé : finissez une partie pour apparaître ici.',
  'board.you': 'vous',
  'board.about':
    'Cotes Weng–Lin (comme TrueSkill) : les parties finies contre des bots comptent à toute table, contre des ' +
    'personnes aux tables publiques ; les bots ont une cote fixe par niveau. Classement par cote moins trois ' +
    'incertitudes, puis par parties jouées.',

  /* The table page: the banner, the waiting room, joining, conceding, the seats, the alerts, the result */
  'res.secret': 'Secret du serveur (révélé) :',
  'res.mine': 'La contribution de votre navigateur {c} est entrée dans la graine : la vérification le montre.',
  'table.abandoned': 'Cette partie a été abandonnée : personne n\'y a joué depuis longtemps.',
  'table.fill': 'La confier à un bot',
  'table.fillText': 'Personne n\'a pris la place {seat}.',
  'table.title': 'Table',
  'table.players': 'Joueurs',
  'table.log': 'Ce qui s\'est passé',
  'table.invite': 'Invitez un ami : partagez ce lien',
  'table.copy': 'Copier',
  'table.seedHash': 'Engagement (publié à la création) :',
  'table.joinTitle': 'Prendre une place',
  'table.joinText': {
    one: '{n} place est libre. Indiquez votre nom pour jouer, ou regardez.',
    other: '{n} places sont libres. Indiquez votre nom pour jouer, ou regardez.',
  },
  'table.spectating': 'Vous regardez.',
  'table.concedeTitle': 'Abandonner',
  'table.concede': 'Abandonner cette partie',
  'table.concedeSure': 'Un bot joue votre place jusqu’à la fin, et vous êtes classé·e dernier·e. C’est définitif.',
  'table.concedeYes': 'Oui, abandonner',
  'table.concedeNo': 'Continuer à jouer',
  'table.youConceded': 'Vous avez abandonné : un bot joue votre place.',
  'table.concededWho': '{who} a abandonné : un bot joue sa place.',
  'table.more': 'Plus sur cette table',
  'table.info': 'Table',
  'table.standInTime': '{who} n’a plus de temps : un bot a joué à sa place.',
  'table.standInTimeMe': 'Votre temps est écoulé : un bot a joué à votre place.',
  'table.standInAway': '{who} est absent·e : un bot a joué à sa place.',
  'table.standInAwayMe': 'Vous étiez absent·e : un bot a joué à votre place.',
  'table.dealSoon': 'Les cartes sont distribuées quand tout le monde est assis.',
  'table.fillIn': 'Le donner à un bot (dans {s} s)',
  'table.mineLabel': 'Votre main et vos coups',
  'table.privateTitle': 'Une table privée',
  'table.privateText':
    'C’est la table de {name}, et elle est privée : seules les personnes qui ont son lien d’invitation peuvent ' +
    's’asseoir. Demandez le lien à {name} (il finit par ?k=…), ou regardez.',
  'table.privateAnon':
    'Cette table est privée : seules les personnes qui ont son lien d’invitation peuvent s’asseoir. Demandez le ' +
    'lien à qui vous a invité (il finit par ?k=…), ou regardez.',
  'table.copied': 'Copié',
  'table.skip': 'Aller à votre main et à vos coups',
  'table.waitPlayers': { one: 'On attend {n} joueur', other: 'On attend {n} joueurs' },
  'table.waitText':
    'La partie commence quand toutes les places sont prises. Envoyez ce lien aux amis que vous voulez à la table :',
  'table.started': 'Tout le monde est assis : la partie commence.',
  'table.share': 'Partager cette table (les autres peuvent regarder)',
  'table.yours': 'Votre main',
  'table.timerHint': 'Temps de jeu : à la fin, un bot joue ce coup.',
  'alert.title': 'À vous',
  'alert.onMyTurn': 'À mon tour :',
  'alert.sound': 'son',
  'alert.notify': 'notification si l\'onglet est caché',
  'alert.autoPass': 'passer pour moi quand je ne peux pas jouer',
  'alert.confirmPass': 'me demander avant de passer',
  'botLevel.random': 'bot débutant',
  'botLevel.heuristic': 'bot facile',
  'botLevel.learned': 'bot avancé',
  'botLevel.strong': 'bot bon',
  'botLevel.search': 'bot expert',
  'botLevel.external': 'programme bot {name}',
  'table.yourTurn': 'À vous de jouer.',
  'table.waiting': 'On attend {who}.',
  'table.waitingFree': 'On attend que quelqu\'un prenne la place {who} : partagez le lien d\'invitation ci-dessous.',
  'table.over': 'La partie est finie.',
  'table.player': 'Joueur',
  'table.autoPassing': 'Vous ne pouvez pas jouer : on passe pour vous…',
  'tag.turn': 'à jouer',
  'tag.leader': 'ouvre',
  'tag.high': 'enchère {n}',
  'tag.passed': 'a passé',
  'tag.you': 'vous',
  'tag.free': 'place libre',
  'tag.conceded': 'abandon (un bot joue)',
  'tag.away': 'absent (un bot joue)',
  'tag.out': 'sorti {n}e',
  'res.won': '{who} a gagné !',
  'res.conceded': '{who}, qui a abandonné (un bot a joué à sa place)',
  'res.nobody': 'Personne n\'a gagné.',
  'res.capped': 'Partie arrêtée (trop longue) : pas de vainqueur.',
  'res.place': 'Place',
  'res.player': 'Joueur',
  'res.score': 'Score',
  'res.deal': 'Les nombres de la donne (la vérification d\'équité les lit)',
  'res.seed': 'Graine (révélée) :',
  'res.replay': 'Revoir',
  'res.download': 'Télécharger l\'enregistrement',
  'res.verify': 'Vérifier l\'équité',
  'res.lobby': 'Accueil',
  'res.rematch': 'Revanche',

  /* Actions in words (the generic buttons, the replay’s moves) */
  'act.bid': 'enchérit {n}',
  'act.pass': 'passe',
  'act.veto': 'joue un Veto',
  'act.keep': 'garde le jet',
  'act.reroll': 'relance avec un Big Cheese',
  'act.rerollDice': 'relance les dés {d} avec un Big Cheese',
  'act.play': 'joue {set}',
  'act.give': 'donne {cards}',
  'act.revolution': 'déclare la révolution',
  'act.noRevolution': 'pas de révolution',
  'act.noMarket': 'pas d\'échange',
  'act.market': 'donne {cards} à {seat} au marché',
  'act.blackMarket': 'marché noir avec {seat}',
  'act.seatAbove': 'placer le nouveau au-dessus du milieu',
  'act.seatBelow': 'placer le nouveau au-dessous du milieu',
  'act.passSure': 'Oui, je passe',
  'act.passNo': 'Non, je garde mon tour',

  /* The Big Cheese at the table: the auction, the dice, the prompts */
  'bc.rerollNone': 'Relancer avec un Big Cheese : choisissez d’abord des dés',
  'bc.bestHalf': 'Entourés : les {n} meilleurs dés, la moitié qui paie.',
  'bc.projectCard': 'carte projet {n}',
  'bc.die': 'dé sur {face}, {sides} faces',
  'bc.yourDice': 'Vos dés',
  'bc.less': 'un sous-fifre de moins',
  'bc.more': 'un sous-fifre de plus',
  'bc.pickDice': 'Cliquez sur les dés à relancer.',
  'bc.diceNotLegal': 'Ces dés ne peuvent pas être relancés ensemble.',
  'bc.rerollPicked': { one: 'Relancer ce dé avec un Big Cheese', other: 'Relancer ces {n} dés avec un Big Cheese' },
  'bc.promptOpen': {
    one: 'Personne n\'a encore enchéri sur {card} : enchérissez avec {n} sous-fifre ou plus, ou passez.',
    other: 'Personne n\'a encore enchéri sur {card} : enchérissez avec {n} sous-fifres ou plus, ou passez.',
  },
  'bc.promptOutbid': {
    one: '{who} enchérit {high} : surenchérissez avec {n} sous-fifre ou plus, ou passez.',
    other: '{who} enchérit {high} : surenchérissez avec {n} sous-fifres ou plus, ou passez.',
  },
  'bc.promptCannot': '{who} enchérit {high} et vous ne pouvez pas surenchérir : passez.',
  'bc.promptNoChips': 'Vous n\'avez aucun sous-fifre libre pour enchérir : passez.',
  'bc.promptVeto': 'Ou jouez un Veto pour défausser {card}.',
  'bc.promptKeep': 'Votre {card} rapporte {n} : gardez le jet.',
  'bc.promptRoll': 'Votre {card} rapporte {n} : gardez le jet, ou jouez un Big Cheese pour relancer.',
  'bc.promptDice':
    'Votre {card} rapporte {n} : gardez le jet, ou cliquez sur les dés à relancer et jouez un Big Cheese.',
  'bc.veto': 'Veto',
  'bc.cheese': 'Big Cheese',
  'bc.project': 'projet',
  'bc.table': 'La table',
  'bc.top': 'Carte visible (aux enchères)',
  'bc.noTop': 'aucune',
  'bc.discards': 'défausse : {n}',
  'bc.deck': { one: 'Pioche : {n} carte', other: 'Pioche : {n} cartes' },
  'bc.target': { one: 'Objectif : {n} point', other: 'Objectif : {n} points' },
  'bc.exact': '(exactement)',
  'bc.dice.polyhedral': 'Gain : le dé de la carte (d2 … d20).',
  'bc.dice.d6': 'Gain : un d6 × la valeur de la carte.',
  'bc.dice.best-of-two': 'Gain : le meilleur de deux d6 × la valeur.',
  'bc.dice.half-of-n': 'Gain : autant de d6 que la valeur, meilleure moitié × 2.',
  'bc.dice.no-dice': 'Gain : la valeur de la carte, sans dés.',
  'bc.auction': 'Aux enchères : {card}',
  'bc.leader': '{who} a ouvert',
  'bc.high': 'meilleure enchère {n} par {who}',
  'bc.noBid': 'pas encore d\'enchère',
  'bc.passed': 'Ont passé (hors de ces enchères) : {who}',
  'bc.turn': 'À enchérir : {who}',
  'bc.roll': '{who} a lancé pour {card} :',
  'bc.pays': '→ rapporte {n}',
  'bc.rollWait': '{who} peut le garder ou jouer un Big Cheese pour relancer.',
  'bc.toResolve': 'Encore à payer : {list}',
  'bc.lastRolls': 'Derniers gains',
  'bc.score': {
    n: 'k',
    one: 'Score {n} / {target} ({k} projet payé)',
    other: 'Score {n} / {target} ({k} projets payés)',
  },
  'bc.free': { one: '{n} sous-fifre libre', other: '{n} sous-fifres libres' },
  'bc.hired': { one: '{n} embauché', other: '{n} embauchés' },
  'bc.projects': 'Projets :',
  'bc.noProjects': 'aucun',
  'bc.hand': 'En main :',
  'bc.chipsOn': { one: '{n} sous-fifre', other: '{n} sous-fifres' },
  'bc.maturesIn': {
    one: 'reste {n} sous-fifre : rapporte après la prochaine enchère gagnée',
    other: 'reste {n} sous-fifres : rapporte après {n} enchères gagnées',
  },
  'bc.bidAmount': 'Sous-fifres :',
  'bc.bid': 'Enchérir',
  'bc.bidMin': 'Enchérir {n}',
  'bc.pass': 'Passer (hors de ces enchères)',
  'bc.useVeto': 'Veto : défausser {card}',
  'bc.keep': 'Garder (rapporte {n})',
  'bc.reroll': 'Relancer avec un Big Cheese',
  'bc.rerollDice': 'Relancer {d} avec un Big Cheese',
  'bc.hintBidMine': 'Enchérissez sur {card}, passez, ou jouez un Veto si vous en avez un.',
  'bc.hintBid': 'Enchères pour {card}.',
  'bc.hintRollMine': 'Gardez votre jet, ou jouez un Big Cheese pour relancer.',
  'bc.hintRoll': 'Un jet attend son propriétaire.',
  'roll.polyhedral': 'le d{sides} donne {d}',
  'roll.d6': 'le d6 donne {d} : {d} × {value} = {pay}',
  'roll.best-of-two': '2d6 donnent {dice} : le meilleur {best} × {value} = {pay}',
  'roll.half-of-n': '{value}d6 donnent {dice} : les {half} meilleurs font {sum}, × 2 = {pay}',
  'roll.no-dice': 'il rapporte sa valeur {value}',

  /* The Great Dalmuti at the table: ranks, roles, phases, the trick, the prompts */
  'dal.promptLead': 'Vous ouvrez : jouez un ensemble de cartes de même rang (les Bouffons sont des jokers).',
  'dal.promptFollow': {
    one: 'Battez {set} : jouez {n} carte de meilleur rang (un nombre plus petit), ou passez.',
    other: 'Battez {set} : jouez {n} cartes de meilleur rang (un nombre plus petit), ou passez.',
  },
  'dal.keys': 'flèches ou le numéro d\'un rang pour bouger, Espace choisit une carte, Entrée joue',
  'dal.ranks': [
    '',
    'Dalmuti',
    'Archevêque',
    'Comte',
    'Baronne',
    'Abbesse',
    'Chevalier',
    'Couturière',
    'Maçon',
    'Cuisinière',
    'Bergère',
    'Tailleur de pierre',
    'Paysan',
    'Bouffon',
  ],
  'role.greater-dalmuti': 'Grand Dalmuti',
  'role.lesser-dalmuti': 'Petit Dalmuti',
  'role.merchant': 'Marchand',
  'role.lesser-peon': 'Petit Péon',
  'role.greater-peon': 'Grand Péon',
  'phase.seat-new': 'Le Grand Dalmuti place le nouveau joueur au-dessus ou au-dessous du milieu.',
  'phase.revolution': 'Vous avez les deux Bouffons : déclarer la révolution ?',
  'phase.greater-tax': 'Le Grand Dalmuti choisit 2 cartes à donner au Grand Péon.',
  'phase.lesser-tax': 'Le Petit Dalmuti choisit 1 carte à donner au Petit Péon.',
  'phase.market': 'Le premier Marchand peut échanger avec un Marchand.',
  'phase.market-return': 'Le Marchand choisi rend une carte.',
  'phase.play': 'Jouez un meilleur ensemble d\'autant de cartes que le dernier, ou passez.',
  'phase.over': 'La session est finie.',
  'dal.handNo': 'Manche {n} sur {of}',
  'dal.target': { one: 'ou premier à {n} point', other: 'ou premier à {n} points' },
  'dal.yourHand': 'Votre main',
  'dal.noCards': 'Aucune carte.',
  'dal.revPending': 'Quelqu\'un a les deux Bouffons et décide d\'une révolution.',
  'dal.revDeclared': '{who} a déclaré la révolution : pas d\'impôts cette manche.',
  'dal.revGreat': '{who} (Grand Péon) a déclaré la Grande Révolution : tous les rôles s\'inversent !',
  'dal.revDeclined': 'Aucune révolution n\'a été déclarée.',
  'dal.noTaxes': 'Pas d\'impôts cette manche.',
  'dal.noTrick': 'Nouveau pli : celui qui ouvre joue n\'importe quel ensemble.',
  'dal.toBeat': 'À battre (joué par {who}) :',
  'dal.passedSince': 'Ont passé depuis : {who}',
  'dal.exTax': {
    one: '{from} a donné {n} carte à {to} en impôts',
    other: '{from} a donné {n} cartes à {to} en impôts',
  },
  'dal.exMarket': {
    one: '{from} a donné {n} carte à {to} au marché',
    other: '{from} a donné {n} cartes à {to} au marché',
  },
  'dal.youGave': 'Vous avez donné {cards} à {to}',
  'dal.youGot': '{from} vous a donné {cards}',
  'dal.willGive': 'Vous donnerez : {cards}',
  'dal.cardsLeft': { one: '{n} carte', other: '{n} cartes' },
  'dal.pos': 'joue en {n}e position',
  'dal.points': { one: '{n} point', other: '{n} points' },
  'dal.play': 'Jouer',
  'dal.pass': 'Passer',
  'dal.pickPlay': 'Choisissez des cartes pour former un ensemble (les Bouffons sont des jokers).',
  'dal.notLegal': 'Cet ensemble ne peut pas être joué maintenant.',
  'dal.give': 'Donner',
  'dal.giveHint': { one: 'Choisissez {n} carte à donner à {who}.', other: 'Choisissez {n} cartes à donner à {who}.' },
  'dal.revolution': '✊ Déclarer la révolution',
  'dal.noRevolution': 'Se taire',
  'dal.marketTo': 'Donner la carte choisie à {who}',
  'dal.cannotBeat': 'Rien des vôtres ne la bat',
  'dal.clear': 'Reposer les cartes',

  /* The rules in short (the table’s side column) */
  'rules.title': 'Règles en bref',
  'rules.bigcheese': [
    'Vous êtes des rats qui se battent pour le Big Cheese. Chacun commence avec des sous-fifres à mettre au travail ' +
    'sur des projets.',
    'La carte du dessus de la pioche visible est aux enchères. Depuis le premier joueur, chacun à son tour enchérit ' +
    'plus haut (au plus ses sous-fifres libres) ou passe ; qui passe est hors de ces enchères.',
    'Le gagnant place ses sous-fifres sur la carte : un nouveau projet. Puis chaque autre projet libère un ' +
    'sous-fifre vers son propriétaire. Un projet sans sous-fifre est terminé.',
    'Les sous-fifres sur un projet sont donc le nombre d\'enchères avant qu\'il rapporte. Une grosse enchère ' +
    'immobilise vos sous-fifres longtemps.',
    'Un projet numéroté terminé rapporte des points aux dés (par défaut le dé de la carte) puis est défaussé. Un ' +
    'Veto ou un Big Cheese terminé va dans votre main.',
    'Veto : à votre tour d\'enchère, au lieu d\'enchérir, défaussez la carte aux enchères. Rien d\'autre ne bouge.',
    'Big Cheese : après un jet sur votre propre projet, jouez-le pour relancer (vous gardez le nouveau jet).',
    'Si tout le monde passe, la carte est défaussée. Le premier à atteindre l\'objectif gagne (égalité : plus haut ' +
    'score, puis plus de projets payés).',
  ],
  'rules.dalmuti': [
    'Les cartes vont du rang 1 (Dalmuti, la meilleure, un seul exemplaire) au 12 (Paysan, douze exemplaires). Deux ' +
    'Bouffons : seuls ils valent 13, avec d\'autres cartes ils prennent leur rang.',
    'Les rôles suivent l\'ordre de sortie de la manche précédente : 👑 Grand Dalmuti, Petit Dalmuti, Marchands, ' +
    'Petit Péon, 👒 Grand Péon.',
    'Impôts : le Grand Péon donne ses 2 meilleures cartes au Grand Dalmuti, qui lui rend 2 cartes de son choix ; le ' +
    'Petit Péon et le Petit Dalmuti en échangent 1.',
    'Qui a les deux Bouffons peut déclarer la révolution : pas d\'impôts. Déclarée par le Grand Péon, c\'est la ' +
    'Grande Révolution : tous les rôles s\'inversent.',
    'Le Grand Dalmuti ouvre avec n\'importe quel ensemble : une ou plusieurs cartes d\'un même rang. Chaque jeu ' +
    'suivant a autant de cartes et un meilleur rang (plus bas).',
    'Vous pouvez passer et jouer plus tard dans le même pli. Quand tous les autres ont passé, le dernier à avoir ' +
    'joué ouvre un nouveau pli.',
    'Débarrassez-vous de toutes vos cartes en premier ! Sortir rapporte 1 point par joueur encore en jeu. L\'ordre ' +
    'de sortie donne les rôles de la manche suivante.',
  ],

  /* Chat and rematch (the table page) */
  'social.rematchAsked': 'Une revanche a été demandée : mêmes places, mêmes joueurs, nouvelle donne.',
  'social.rematchJoin': 'Rejoindre la revanche',
  'social.rematchStay': 'Rester ici',
  'social.rematchGo': 'Cette table a une revanche : rejoignez votre place',
  'social.rematchWatch': 'Cette table a une revanche : la regarder',
  'chat.title': 'Discussion',
  'chat.placeholder': 'Écrivez quelque chose…',
  'chat.label': 'Message de discussion',
  'chat.send': 'Envoyer',
  'chat.empty': 'Aucun message pour l\'instant.',
  'chat.spectator': 'Un spectateur',
  'chat.emotes': 'Émoticônes',
  'chat.emote.hi': 'Salut !',
  'chat.emote.gg': 'Bien joué à tous',
  'chat.emote.wp': 'Bien joué',
  'chat.emote.thanks': 'Merci',
  'chat.emote.oops': 'Oups',
  'chat.emote.wow': 'Waouh',
  'chat.emote.think': 'Je réfléchis…',
  'chat.emote.laugh': 'Ha ha',

  /* Game events, one template per kind: {field} is the event’s field, seats by name, cards by name */
  'ev.and': ' et ',
  'ev.side.above': 'au-dessus',
  'ev.side.below': 'au-dessous',
  'ev.bigcheese.shuffled': 'Pioche mélangée : {cards} cartes, {top} au-dessus ; {leader} ouvre.',
  'ev.bigcheese.auction': 'Enchères pour {card} : {leader} ouvre.',
  'ev.bigcheese.reshuffled': {
    n: 'cards',
    one: 'Pioche vide : {cards} carte défaussée est mélangée en une nouvelle pioche.',
    other: 'Pioche vide : {cards} cartes défaussées sont mélangées en une nouvelle pioche.',
  },
  'ev.bigcheese.stuck': 'Plus aucune carte ne peut être révélée : la partie s\'arrête sans vainqueur.',
  'ev.bigcheese.nothing-to-reveal': 'Rien à révéler : chaque projet avance d\'un cran.',
  'ev.bigcheese.to-hand': '{card} de {owner} arrive à terme : dans la main de {owner}.',
  'ev.bigcheese.hire': {
    n: 'chips',
    one:
      'Le Big Cheese de {owner} arrive à terme : {owner} embauche {chips} sous-fifre ({hired} embauchés, {total} en ' +
      'jeu).',
    other:
      'Le Big Cheese de {owner} arrive à terme : {owner} embauche {chips} sous-fifres ({hired} embauchés, {total} ' +
      'en jeu).',
  },
  'ev.bigcheese.roll': '{card} de {owner} arrive à terme : {roll} ; {owner} peut jouer un Big Cheese.',
  'ev.bigcheese.payout': '{card} de {owner} arrive à terme : {roll} ; {owner} marque {amount} (total {total}).',
  'ev.bigcheese.payout-ignored':
    '{card} de {owner} arrive à terme : {roll} ; {amount} dépasserait l\'objectif exact {target} : ignoré, {card} ' +
    'défaussé.',
  'ev.bigcheese.keep': '{owner} garde le jet et marque {amount} (total {total}).',
  'ev.bigcheese.keep-ignored':
    '{owner} garde le jet : {amount} dépasserait l\'objectif exact {target} : ignoré, {card} défaussé.',
  'ev.bigcheese.reroll': '{owner} joue un Big Cheese et relance : {roll}.',
  'ev.bigcheese.bid': '{seat} enchérit {amount}.',
  'ev.bigcheese.pass': '{seat} passe.',
  'ev.bigcheese.all-pass': 'Tout le monde passe : {card} défaussé, aucun projet n\'avance.',
  'ev.bigcheese.veto': '{seat} oppose son Veto à {card} : enchères annulées, aucun projet n\'avance.',
  'ev.bigcheese.take': {
    n: 'chips',
    one: '{seat} remporte {card} pour {chips} sous-fifre.',
    other: '{seat} remporte {card} pour {chips} sous-fifres.',
  },
  'ev.bigcheese.win': {
    n: 'score',
    one: 'Victoire de {winners} avec {score} point !',
    other: 'Victoire de {winners} avec {score} points !',
  },
  'ev.bigcheese.tie-broken': '{tied} sont à égalité avec {score} : le dé donne {face}, {winner} gagne.',
  'ev.dalmuti.role': '{seat} est {role}.',
  'ev.dalmuti.seating-draw': 'Tirage des places : {draws}.',
  'ev.dalmuti.seating-redraw': 'Égalité, nouveau tirage : {draws}.',
  'ev.dalmuti.joins': '{seat} rejoint la partie.',
  'ev.dalmuti.sits': '{seat} s\'assoit à la place {place} comme {role}.',
  'ev.dalmuti.deal': 'Manche {number} : les {cards} cartes sont distribuées.',
  'ev.dalmuti.dealt': 'Vous recevez : {hand}.',
  'ev.dalmuti.revolution-pending': 'Un joueur a les deux Bouffons et peut déclarer la Révolution.',
  'ev.dalmuti.both-jesters': 'Vous avez les deux Bouffons : vous pouvez déclarer la Révolution.',
  'ev.dalmuti.no-taxes': 'Pas d\'impôts cette manche.',
  'ev.dalmuti.tax-paid': {
    n: 'count',
    one: '{from} paie {count} carte d\'impôts à {to}.',
    other: '{from} paie {count} cartes d\'impôts à {to}.',
  },
  'ev.dalmuti.tax-returned': {
    n: 'count',
    one: '{from} rend {count} carte à {to}.',
    other: '{from} rend {count} cartes à {to}.',
  },
  'ev.dalmuti.you-give': 'Vous donnez {cards} à {to}.',
  'ev.dalmuti.you-get': '{from} vous donne {cards}.',
  'ev.dalmuti.leads': '{seat} ouvre le tour.',
  'ev.dalmuti.play': '{seat} joue {play}.',
  'ev.dalmuti.pass': '{seat} passe.',
  'ev.dalmuti.out': '{seat} sort à la place {place} (+{points}).',
  'ev.dalmuti.last': '{seat} est dernier (+0).',
  'ev.dalmuti.greater-peon-rises': 'Le Grand Péon {peon} progresse : +1 au Grand Dalmuti {dalmuti}.',
  'ev.dalmuti.lesser-peon-rises': 'Le Petit Péon {peon} progresse : +1 au Petit Dalmuti {dalmuti}.',
  'ev.dalmuti.elected': 'Le Grand Péon {seat} devient Grand Dalmuti : +1.',
  'ev.dalmuti.hand-over': 'Manche {number} terminée. Ordre de sortie : {order}. Scores : {scores}.',
  'ev.dalmuti.session-over': {
    n: 'hands',
    one: 'La partie se termine après {hands} manche : victoire de {winners}, score {points} !',
    other: 'La partie se termine après {hands} manches : victoire de {winners}, score {points} !',
  },
  'ev.dalmuti.first-out': 'La manche est terminée : {seat} gagne en sortant le premier.',
  'ev.dalmuti.tax-chosen': '{seat} a choisi les cartes à rendre.',
  'ev.dalmuti.will-give': 'Vous donnerez {cards} au {role}.',
  'ev.dalmuti.market-return': '{from} rend une carte à {to} au marché.',
  'ev.dalmuti.great-revolution': '{seat} déclare la Grande Révolution : tous les rôles s\'inversent !',
  'ev.dalmuti.revolution': '{seat} déclare la Révolution : pas d\'impôts cette manche.',
  'ev.dalmuti.declined': 'Vous ne déclarez pas la Révolution.',
  'ev.dalmuti.no-revolution': 'Aucune Révolution n\'est déclarée.',
  'ev.dalmuti.market-trade': '{seat} échange une carte avec {partner} au marché.',
  'ev.dalmuti.black-market': '{seat} et {partner} se tirent chacun une carte au hasard chez l\'autre (marché noir).',
  'ev.dalmuti.black-market-draw': '{other} tire votre {lost} ; vous tirez son {got}.',
  'ev.dalmuti.no-trade': '{seat} refuse d\'échanger au marché.',
  'ev.dalmuti.seats-newcomer': '{seat} place le nouveau venu {side} du joueur du milieu.',

  /* The replay page */
  'replay.rules': 'version des règles {v}',
  'replay.slider': 'Coup',
  'replay.title': 'Revoir la partie',
  'replay.moves': 'Coups',
  'replay.step': 'Coup {i} sur {n}',
  'replay.start': 'Début de la partie : appuyez sur ▶ pour avancer.',
  'replay.table': 'Page de la table',
  'replay.jump': 'Coup',
  'replay.setup': 'Avant le premier coup',
  'replay.auction': 'Enchère {n}',
  'replay.hand': 'Manche {n}',
  'replay.trick': 'Manche {hand}, pli {n}',
  'replay.hands': 'Toutes les mains',
  'replay.noCards': 'aucune carte',
  'replay.notOver': 'Cette partie n\'est pas finie : on peut la revoir à la fin.',

  /* The replay page: the analysis by the strongest bot */
  'an.title': 'Analyse par le meilleur bot',
  'an.intro':
    'Le bot de recherche juge chaque décision du point de vue du joueur à ce moment, jamais avec les cartes cachées ' +
    ': la valeur du coup joué contre le meilleur qu\'il trouve.',
  'an.start': 'Analyser cette partie',
  'an.again': 'Réessayer',
  'an.queued': 'En attente de la fin d\'autres analyses…',
  'an.running': 'Analyse de la décision {done} sur {total}…',
  'an.progress': 'Progression de l\'analyse',
  'an.failed': 'L\'analyse a échoué.',
  'an.unit':
    'Les valeurs sont la place finale attendue (1 = premier) : plus bas est meilleur. La perte est le nombre de ' +
    'places cédées par le coup joué face au meilleur coup trouvé.',
  'an.summary': 'Résumé par joueur',
  'an.player': 'Joueur',
  'an.decisions': 'Décisions',
  'an.meanLoss': 'Perte moyenne (places)',
  'an.accuracy': 'Précision',
  'an.label.good': 'bon',
  'an.label.inaccuracy': 'imprécision',
  'an.label.mistake': 'erreur',
  'an.label.blunder': 'gaffe',
  'an.graph': 'Graphique d\'évaluation',
  'an.graphAbout': 'Place finale attendue après chaque décision du joueur ; plus haut est meilleur.',
  'an.better': 'mieux',
  'an.worse': 'moins bien',
  'an.axisMove': 'coup',
  'an.graphLine': '{who} : place {from} après le coup {a}, {to} après le coup {b} ; meilleure {best}, pire {worst}.',
  'an.turning': 'Tournants',
  'an.noTurning': 'Aucun grand écart.',
  'an.turn': '{who} : de {from} à {to} ({table} dû à la table, {choice} dû au choix)',
  'an.list': 'Décisions qui ne sont pas bonnes',
  'an.allGood': 'Toutes les décisions étaient bonnes.',
  'an.move': 'Coup',
  'an.played': 'Joué',
  'an.best': 'Meilleur',
  'an.loss': 'Perte (places)',
  'an.label': 'Jugement',
  'an.goto': 'Montrer le coup {n} dans le replay',

  /* The fairness check page */
  'verify.noFairness':
    'Cet enregistrement n\'est pas celui de la table {want} à laquelle vous avez participé : il ne porte aucune ' +
    'donne équitable, alors que ce navigateur y a contribué.',
  'verify.notMine':
    'Cet enregistrement n\'est pas celui de la table {want} à laquelle vous avez participé : la contribution de ce ' +
    'navigateur ({mine}) n\'est pas parmi les siennes.',
  'verify.unverifiable':
    'La partie se rejoue et son résultat correspond, mais rien ne montre que le serveur a fixé sa graine avant la ' +
    'partie : l\'enregistrement ne porte aucun engagement signé par le serveur avec la clé que ce navigateur ' +
    'connaît.',
  'verify.otherTable': 'Cet enregistrement n\'est pas celui de la table {want} : c\'est celui de la table {got}.',
  'verify.otherCommitment':
    'Cet enregistrement n\'est pas celui de la table {want} telle que vous l\'avez vue : son engagement {got} ' +
    'n\'est pas celui que ce navigateur a reçu quand vous vous êtes assis ({shown}).',
  'verify.contribs': 'Contributions entrées dans la graine',
  'verify.yours': 'la vôtre : créée par ce navigateur quand vous vous êtes assis',
  'verify.title': 'Vérifier l\'équité',
  'verify.intro':
    'Chaque mélange, distribution et jet de dé vient d\'une graine dont l\'empreinte est publiée à la création de ' +
    'la table. Collez ou chargez l\'enregistrement d\'une partie pour vérifier que la graine révélée correspond à ' +
    'l\'empreinte et reproduit toute la partie.',
  'verify.file': 'Fichier d\'enregistrement :',
  'verify.fromTable': 'ou une table terminée :',
  'verify.tablePh': 'id de la table',
  'verify.load': 'Charger',
  'verify.paste': 'Collez ici l\'enregistrement (JSON)',
  'verify.check': 'Vérifier',
  'verify.empty': 'Collez ou chargez d\'abord un enregistrement.',
  'verify.notJson': 'Ce n\'est pas du JSON valide :',
  'verify.good': 'L\'enregistrement est correct : la partie était équitable.',
  'verify.bad': 'L\'enregistrement ne correspond pas.',
  'verify.checks': 'Ce qui a été vérifié',
  'verify.chance': {
    one: '{n} mélange, distribution ou jet reproduit depuis la graine',
    other: '{n} mélanges, distributions et jets reproduits depuis la graine',
  },
  'verify.mismatch': 'Première différence :',

  /* A tutorial: "Learn to play" in the lobby, and the coach of its table (tutorial.js) */
  'tutorial.learn': 'Apprendre à jouer : {game}',
  'tutorial.name': 'Apprenti',
  'coach.title': 'Partie guidée',
  'coach.step': 'étape {n}',
  'coach.deal': 'Une partie guidée sur une donne fixe, la même pour tous et publiée : elle ne compte pas au classement.',
  'coach.next': 'Compris',
  'coach.yourMove': 'À vous de jouer : la partie vous attend.',
  'coach.hide': 'Masquer les conseils',
  'coach.show': 'Afficher les conseils',
  'coach.real': 'Jouer une vraie partie : {game}',
  'coach.d-welcome':
    'Bienvenue au Grand Dalmuti ! Les places font le tour de la table par rang, du Grand Dalmuti 👑 au Grand ' +
    'Péon 👒. La vôtre est entourée : vous commencez Grand Péon, le dernier de tous.',
  'coach.d-cards':
    'Votre main : le nombre est le rang, et plus bas vaut mieux (le 1 est la meilleure carte). Les deux Bouffons ' +
    '(J) rejoignent n\'importe quel ensemble et en prennent le rang ; seuls ils valent 13. Videz votre main le premier.',
  'coach.d-revolution':
    'Vous avez les deux Bouffons ! Vous pouvez déclarer la révolution. En Grand Péon, c\'est la Grande Révolution : ' +
    'tous les rôles s\'inversent et vous devenez Grand Dalmuti ; les impôts se paient ensuite selon les nouveaux ' +
    'rôles. Ou taisez-vous.',
  'coach.d-give':
    'Impôts : le Grand Péon donne ses 2 meilleures cartes au Grand Dalmuti, qui lui en rend 2 de son choix (les ' +
    'Petits en échangent 1). Vous êtes Grand Dalmuti : choisissez 2 cartes, vos pires, et appuyez sur Donner.',
  'coach.d-taxes':
    'Les impôts sont payés : le Grand Péon a donné ses 2 meilleures cartes au Grand Dalmuti et en a reçu 2 au ' +
    'choix du Dalmuti ; le Petit Péon et le Petit Dalmuti en ont échangé 1 de la même façon.',
  'coach.d-lead':
    'Vous ouvrez : jouez n\'importe quel ensemble, une carte ou plusieurs du même rang (un Bouffon peut s\'y ' +
    'joindre). Choisissez les cartes dans votre main, puis appuyez sur Jouer. Un gros ensemble est dur à battre.',
  'coach.d-beat':
    'Un ensemble à battre : jouez autant de cartes d\'un meilleur rang (plus bas). Ou passez : passer ne vous ' +
    'empêche pas de jouer plus tard dans ce pli.',
  'coach.d-trick': 'Tous les autres ont passé : le dernier ensemble joué remporte le pli, et son joueur ouvre le suivant avec n\'importe quel ensemble.',
  'coach.d-out':
    '{who} a joué sa dernière carte : sorti à la place {place}. Sortir rapporte 1 point par joueur encore en jeu, ' +
    'et l\'ordre de sortie donne les rôles de la manche suivante.',
  'coach.end-dalmuti':
    'La manche est finie ! Une vraie partie se joue en plusieurs manches : les rôles restent, donc les Péons ' +
    'paient les impôts aux Dalmuti à chaque manche, jusqu\'à ce qu\'ils montent.',
  'coach.b-welcome':
    'Bienvenue au Big Cheese ! La carte visible est le projet aux enchères. Une carte numérotée rapporte des ' +
    'points quand son projet est terminé : elle lance son propre dé (un 20 lance un dé à 20 faces). Le premier à ' +
    '{target} points gagne.',
  'coach.b-chips':
    'Votre place, entourée : vos sous-fifres (🐭) sont ce que vous enchérissez. Les sous-fifres engagés vont sur ' +
    'la carte que vous remportez et reviennent un par un.',
  'coach.b-cheese':
    'Cette carte est un Big Cheese. Elle ne rapporte rien, mais une fois terminée elle va dans la main de son ' +
    'propriétaire : après un jet sur un de vos projets, jouez-la pour relancer le dé (vous gardez le nouveau jet).',
  'coach.b-veto-card':
    'Cette carte est un Veto. Une fois terminée elle va dans la main de son propriétaire ; ensuite, à votre tour ' +
    'd\'enchère, vous pouvez la jouer au lieu d\'enchérir : la carte aux enchères est défaussée et rien n\'avance.',
  'coach.b-bid':
    'À vous d\'enchérir : proposez plus que l\'enchère la plus haute, au plus vos sous-fifres libres (− et + ' +
    'la règlent), ou passez. Qui passe est hors de ces enchères ; le dernier enchérisseur restant remporte la carte.',
  'coach.b-take':
    '{who} a remporté la carte : les sous-fifres engagés y restent, un nouveau projet. Après chaque enchère, chaque ' +
    'autre projet rend un sous-fifre ; un projet sans sous-fifre est terminé.',
  'coach.b-hand': 'Le {card} de {who} est terminé : il va dans la main de {who}, pour être joué plus tard.',
  'coach.b-payout': 'Le projet de {who} est terminé et rapporte : son dé a été lancé, et {who} marque {amount}. La carte est défaussée.',
  'coach.b-veto':
    'Vous avez un Veto : au lieu d\'enchérir, jouez-le maintenant pour défausser la carte aux enchères, enchères ' +
    'comprises. Gardez-le pour une carte qu\'il ne faut pas laisser à un autre.',
  'coach.b-reroll':
    'Votre projet est terminé et vous avez un Big Cheese : gardez ce jet, ou jouez le Big Cheese pour relancer. ' +
    'Le nouveau jet doit être gardé : relancez un jet faible.',
  'coach.end-bigcheese':
    'La partie est finie ! Une vraie partie se joue à 40 points à 4 : enchérissez sur les projets qui rapportent, ' +
    'gardez des sous-fifres libres pour l\'enchère suivante, et un Veto pour la carte à ne pas laisser filer.',
};
