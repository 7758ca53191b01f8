/// A piece of text ready to copy: its UTF-8 bytes and its length in characters.
struct Token: Sendable {
    let bytes: [UInt8]
    let characters: Int

    init(_ text: String) {
        bytes = Array(text.utf8)
        characters = text.unicodeScalars.count
    }
}

/// The words the synthetic store is made of.
enum Vocabulary {
    static let givenNames = words(
        """
        alex blake casey drew ellis finn gray harper indy jules kai lane morgan noel onyx parker
        quinn reese sage tatum uma vale wren yael zion amir bianca carlos dana elena felix gia
        hugo ivan jana kofi lena milo nadia oscar petra rafa selin tomas ulla vera wanda xavi
        minseo jiwon hyejin dongha seojun yujin taemin eunji jisoo haneul sora daeho mirae
        yuto hana ren mei kaito airi lucia mateus chloe amara ravi tariq noor
        """)
    static let familyNames = words(
        """
        adams baker carter diaz evans fischer garcia hughes ito jensen kowalski larsen moreau
        novak ortiz patel quinn rossi schmidt tanaka ueda varga weber young zhang
        kim lee park choi jung kang cho yoon jang lim han oh seo shin kwon hwang ahn song
        nakamura watanabe okafor mensah silva pereira nguyen tran haddad
        """)
    static let koreanFamily = "김이박최정강조윤장임한오서신권황안송전홍유".map(String.init)
    static let koreanGiven = words(
        """
        민서 지원 혜진 동하 서준 유진 태민 은지 지수 하늘 소라 대호 미래 준호 수빈 예린 도현 시은 건우 나연
        """)
    static let words = tokens(
        """
        the a an and or to of in on at for with from by it is was be are this that these my your
        our just still now today tonight again finally maybe never always really very so too not
        good great nice fine bad weird fun quiet busy tired happy new old big small fast slow
        morning evening night weekend week month year day hour minute lunch dinner breakfast
        coffee tea rain snow sun wind walk run ride trip train bus station city street park river
        beach mountain friend family team people someone everyone work office home desk window
        code build test ship deploy release merge branch commit review refactor bug fix crash
        patch server client cache queue thread memory disk file folder page site feed template
        swift firestore json markdown static generator compiler linker package module function
        struct enum protocol closure async await actor value type error warning log metric
        book movie show song album game photo picture note list idea plan draft launch demo
        think know feel want need love like miss hope try make see look read write watch play
        """)
    static let koreanPhrases = tokens(
        """
        오늘도 화이팅|비 오는 날엔 라면|퇴근길 지하철|새벽 코딩|드디어 배포했다|테스트 전부 통과|\
        커피가 필요해|산책하기 좋은 날|이번 주말 계획|맛있는 점심|고마워요|최고예요
        """, separator: "|")
    static let emoji = tokens("😀 😅 🤔 🔥 🚀 ☕ 🎉 👏 🌧️ 🌸 🐦 ✨ 💻 🍜 🏃 📚", separator: " ")
    static let code = tokens(
        """
        swift test|let y = 2|git rebase -i|make bench|try await|if let x|print("ok")|\
        cat *.json|@MainActor|Sendable|[Int: String]|a <= b && c >= d|x \\ y
        """, separator: "|")
    static let domains = tokens(
        "example.com example.org example.net docs.example.com blog.example.org media.example.net", separator: " ")
    static let punctuation = tokens(". , ! ? ... :", separator: " ")
    static let tagStems = words(
        """
        swift swiftui ios macos linux rust go python javascript typescript webdev css html
        firebase firestore cloud serverless devops docker opensource github coding programming
        startup product design ux ai ml data database sql testing ci release seoul busan jeju
        korea travel food coffee cafe tea bakery music kpop jazz movies books reading running
        cycling hiking yoga fitness photo photography sunset nature cats dogs pets weekend
        monday friday mood life art sketch gaming esports football baseball basketball news
        tech science space climate garden cooking
        """)
    static let tagSuffixes = words("2022 2023 life daily kr dev fan love tips")

    static let placeKinds = words("카페 커피 베이커리 식당 분식 국수 치킨 피자 서점 공원 도서관 미술관 헬스장 떡집 우동 초밥 브런치 바")
    static let placeNames = words("온도 그늘 바람 노을 동네 마루 새벽 구름 들꽃 한결 소담 오롯 다온 여름 겨울 단골 모퉁이 풍경")
    static let branchNames = words("본 강남 홍대 신촌 역삼 서면 해운대 성수 2호")
    /// (city, districts, latitude and longitude of its centre in millionths of a degree)
    static let cities: [(city: String, districts: [String], latitude: Int, longitude: Int)] = [
        ("서울특별시", words("강남구 마포구 종로구 용산구 성동구 송파구 서대문구 관악구 중구"), 37_566_500, 126_978_000),
        ("부산광역시", words("해운대구 수영구 부산진구 동래구 남구"), 35_179_600, 129_075_600),
        ("대구광역시", words("중구 수성구 달서구"), 35_871_400, 128_601_400),
        ("인천광역시", words("연수구 남동구 부평구"), 37_456_300, 126_705_200),
        ("대전광역시", words("유성구 서구 중구"), 36_350_400, 127_384_500),
        ("광주광역시", words("동구 서구 북구"), 35_159_500, 126_852_600),
        ("제주특별자치도", words("제주시 서귀포시"), 33_499_600, 126_531_200),
    ]
    static let roads = words("테헤란로 양화로 세종대로 이태원로 왕십리로 올림픽로 연세로 해운대로 광안해변로 중앙대로 동성로 대학로 금남로 노형로 한밭대로")

    static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    static func tokens(_ text: String, separator: Character? = nil) -> [Token] {
        let parts = separator.map { s in text.split(separator: s).map { $0.trimmingSpaces } } ?? words(text)
        return parts.filter { !$0.isEmpty }.map(Token.init)
    }
}

extension Substring {
    var trimmingSpaces: String {
        var s = self
        while s.first == " " || s.first == "\n" { s = s.dropFirst() }
        while s.last == " " || s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
