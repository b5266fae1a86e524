/** Sections and items of an application's navigation, used by the apps and worksheets modules. */
export { ItemType, createSections, moveItem, placeItem, removeItem, renameItem, resolveSection, sectionsOfItems, sectionTree, type SectionTree, type ShowsItem } from './service.js';
