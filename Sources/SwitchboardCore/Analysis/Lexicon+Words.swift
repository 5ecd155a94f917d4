extension Lexicon {
    /// The word lists, lowercase and without apostrophes, space-separated.
    static let wordLists: [(Lexicon, String)] = [
        (.firstPerson, "i im ive me my mine myself"),
        (.thirdPerson, "he she his her him hes shes"),
        (.possessive, "my his her our their"),
        (.relation, """
            wife husband partner spouse girlfriend boyfriend fiance fiancee son daughter kid kids child children \
            baby mom mum mother dad father parents brother sister sibling grandma grandmother grandpa grandfather \
            aunt uncle cousin nephew niece family doctor therapist psychiatrist boss manager landlord lawyer \
            neighbor neighbour roommate coworker colleague ex friend patient patients client resident
            """),
        (.condition, """
            diabetes diabetic hiv cancer tumor tumour leukemia lymphoma melanoma depression depressed anxiety \
            bipolar schizophrenia schizophrenic adhd autism autistic asthma epilepsy epileptic seizures dementia \
            alzheimers parkinsons hepatitis herpes chlamydia gonorrhea syphilis std stds sti pregnant pregnancy \
            miscarriage ptsd ocd anorexia bulimia hypertension arthritis migraines covid insomnia addiction \
            alcoholism lupus crohns infertility disorder disease illness
            """),
        (.medication, """
            insulin metformin sertraline zoloft prozac fluoxetine lexapro escitalopram citalopram xanax alprazolam \
            adderall ritalin methylphenidate lithium chemo chemotherapy radiotherapy antidepressants antidepressant \
            methadone oxycodone opioids antiretrovirals antiretroviral statins lisinopril levothyroxine ozempic \
            wegovy semaglutide ibuprofen wellbutrin bupropion valium diazepam klonopin seroquel abilify medication \
            medications meds prednisone warfarin truvada
            """),
        (.healthVerb, """
            have has had having got get gets take takes taking took suffer suffers suffering suffered treated \
            battling fighting living struggling recovering need needs use uses using am im is was been on
            """),
        (.healthStrong, "diagnosed diagnosis prescribed prescription"),
        (.healthModifier, """
            a an the some mild severe chronic acute stage type early late been had breast lung skin prostate \
            colon clinical major really very bad terrible with from for my his her their our daily postpartum \
            gestational terminal advanced
            """),
        (.copula, "is was am im are es est ist"),
        (.ssnContext, "ssn ssns social"),
        (.passport, "passport"),
        (.password, "password passwd passphrase passcode pin htpasswd passwort kennwort contraseña пароль"),
        (.passwordWeak, "pass pw pwd pswd passe"),
        (.secretNoun, "key token secret apikey credentials credential authorization sessionid"),
        (.passwordFlagTool, "mysql mysqldump mysqladmin mariadb sshpass docker podman nerdctl"),
        (.userFlagTool, "curl wget"),
        (.accountNoun, "for user username account login email"),
        (.secretQualifier, "api apikey access auth secret private client refresh bearer"),
        (.phoneContext, "call phone tel telephone mobile cell text whatsapp fax reach ring dial"),
        (.cardContext, "card credit debit visa mastercard amex cc creditcard cardnumber"),
        (.streetSuffix, """
            street avenue road boulevard lane drive court place terrace parkway highway way circle square
            """),
        (.streetSuffixShort, "st ave rd blvd ln dr ct pl pkwy hwy cir sq"),
        (.birthCue, "born dob birthday birthdate"),
        (.month, """
            january february march april may june july august september october november december jan feb mar \
            apr jun jul aug sep sept oct nov dec
            """),
        (.personalNoun, """
            address home house apartment salary income debt debts bank account paycheck rent mortgage name \
            birthday age phone email location schedule
            """),
        (.identityNoun, "address name salary income birthday age"),
        (.livePlace, "live reside work"),
        (.notAValue, """
            a an the too not wrong incorrect expired invalid correct required weak strong long short still now \
            being case hard easy same different secure safe changed reset forgotten lost saved stored set \
            something what this that it very really and or but if for of in on at to my your their its
            """),
        (.english, """
            the and is are was what how why when where who which you your i my me it this that with for of to in \
            on be can could would should please do does not have has an a hello hi thanks thank help write explain
            """),
        (.spanish, """
            el la los las de que y en es por para con una un como qué cómo está son pero más muy tengo quiero \
            hola gracias porque también del al se lo
            """),
        (.french, """
            le la les de et est que un une pour avec je vous comment ce pas des du au sur dans qui bonjour merci \
            mais très il elle nous sont
            """),
        (.german, """
            der die das und ist nicht ein eine ich sie mit für wie was zu den dem des auf ist sind bitte danke \
            hallo aber auch wir kann
            """),
        (.stepCue, """
            step steps first then finally explain analyze analyse compare prove derive implement design refactor \
            optimize debug evaluate algorithm tradeoffs architecture plan outline summarize translate calculate
            """),
        (.codeCue, """
            func def class return import const var let function struct select public static void fn async await \
            println printf include
            """),
    ]
}
