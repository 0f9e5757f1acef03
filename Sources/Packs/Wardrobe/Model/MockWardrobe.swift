import ClosetCore
import Foundation

/// The app's `Clothes.Mock`, `ClothesList.mocks` and `Style.Mock.mocks`: ten clothes, all
/// `.allWeather`, and five styles. Used by the unit tests ported from the app; the same data
/// ships as `Examples/mock-data.closet`.
package struct MockWardrobe: Sendable {
    package let top1, top2, top3, bottom1, bottom2, bottom3: Clothes
    package let accessory1, accessory2, outer1, shoes1: Clothes

    /// `createdAt` steps one second apart in declaration order from `start`.
    package init(start: Date = Date(timeIntervalSince1970: 1_684_281_600)) {
        func make(_ offset: Int, _ category: ClothesCategory, _ text: String) -> Clothes {
            Clothes(
                createdAt: start.addingTimeInterval(TimeInterval(offset)), category: category,
                weatherType: .allWeather, descriptions: text)
        }
        top1 = make(0, .top, "tshirt1")
        top2 = make(1, .top, "tshirt2")
        top3 = make(2, .top, "shirt1")
        bottom1 = make(3, .bottom, "pants1")
        bottom2 = make(4, .bottom, "pants2")
        bottom3 = make(5, .bottom, "shortpants")
        accessory1 = make(6, .accessory, "cap1")
        accessory2 = make(7, .accessory, "socks1")
        outer1 = make(8, .outer, "jacket1")
        shoes1 = make(9, .shoes, "shoes1")
    }

    /// `ClothesList.mocks`.
    package var clothesList: ClothesList {
        ClothesList(clothesByCategory: [
            .top: [top1, top2, top3], .bottom: [bottom1, bottom2, bottom3],
            .accessory: [accessory1, accessory2], .outer: [outer1], .shoes: [shoes1],
        ])
    }

    package var allClothes: [Clothes] {
        [top1, top2, top3, bottom1, bottom2, bottom3, accessory1, accessory2, outer1, shoes1]
    }

    /// `Style.Mock.mocks`.
    package var styles: [Style] {
        [
            Style(
                clothes: [top1, bottom1, outer1, accessory1, shoes1].toClothesDictionary(), weather: .fall,
                name: "가을용 옷"),
            Style(clothes: [top2, bottom2, outer1, accessory2].toClothesDictionary(), weather: .winter, name: "겨울용 옷"),
            Style(clothes: [top3, bottom3, outer1].toClothesDictionary(), weather: .spring, name: "봄용 옷"),
            Style(clothes: [top2, bottom1, outer1, accessory2].toClothesDictionary(), weather: .summer, name: "여름용 옷"),
            Style(clothes: [top3, bottom2, shoes1].toClothesDictionary(), weather: .spring, name: "봄용 옷 2"),
        ]
    }
}
